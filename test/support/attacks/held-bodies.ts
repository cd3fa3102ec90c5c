import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

/**
 * Request bodies held incomplete, as the security review reproduced them (uploads declaring 90 MiB that send a
 * part and stop short), for the e2e suite and for a bench: each takes the service's base URL and reports what
 * the holding client saw.
 */

/** The Content-Length of the review's uploads: 90 MiB, of which the attack never sends the last byte. */
export const HELD_CONTENT_LENGTH = 90 * 1024 * 1024;

/** What a client holding a body incomplete saw. */
export interface HeldBodyOutcome {
  /** The answer's status, or null when none came while the body was held. */
  status: number | null;
  headers: IncomingHttpHeaders | null;
  /** The answer's body, parsed where it is JSON (else the raw text). */
  body: unknown;
  /** When the answer came, from the start of the request. */
  answeredAfterMs: number | null;
  /** Body bytes the client had written when the answer came, or in all. */
  bytesSent: number;
  /** Whether the server ended the connection while the client held it. */
  closedByServer: boolean;
}

export interface HeldBodyOptions {
  /** @default '/api/documents/upload' */
  path?: string;
  /** The length the request declares. @default HELD_CONTENT_LENGTH */
  contentLength?: number;
  /** Body bytes to send, fewer than `contentLength`, before holding. */
  sendBytes: number;
  /** Further headers (an `authorization`). */
  headers?: Record<string, string>;
  /** While held, one more byte this often (a slow sender that keeps the connection alive); none by default. */
  trickleEveryMs?: number;
}

/** One body held incomplete. */
export interface HeldBody {
  /** Resolves once `sendBytes` are written, or the server answered or closed the connection first. */
  sent: Promise<void>;
  /** Resolves once the server answered and ended the connection. */
  settled: Promise<void>;
  outcome(): HeldBodyOutcome;
  /** Drops the connection, as a client that goes away does. */
  abort(): void;
}

const CHUNK = Buffer.alloc(64 * 1024, 'x');
const BOUNDARY = 'held-body';

/**
 * Opens one `POST` declaring `contentLength` multipart bytes, writes `sendBytes` of them (as fast as the server
 * takes them) and then holds the connection open without ending the body.
 */
export function holdBody(baseUrl: string, options: HeldBodyOptions): HeldBody {
  const started = performance.now();
  const outcome: HeldBodyOutcome = { status: null, headers: null, body: undefined, answeredAfterMs: null, bytesSent: 0, closedByServer: false };
  let aborted = false;
  let trickle: NodeJS.Timeout | undefined;
  const outgoing = httpRequest(`${baseUrl}${options.path ?? '/api/documents/upload'}`, {
    method: 'POST',
    agent: false,
    headers: {
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      'content-length': options.contentLength ?? HELD_CONTENT_LENGTH,
      ...options.headers,
    },
  });
  // A server that drops the connection mid-write surfaces here (EPIPE, ECONNRESET): `closedByServer` says it.
  outgoing.on('error', () => undefined);
  const closed = new Promise<void>((resolveClose) =>
    outgoing.once('close', () => {
      clearInterval(trickle);
      if (!aborted) outcome.closedByServer = true;
      resolveClose();
    }),
  );
  const answered = new Promise<void>((resolveAnswer) =>
    outgoing.once('response', (response) => {
      outcome.status = response.statusCode ?? null;
      outcome.headers = response.headers;
      outcome.answeredAfterMs = performance.now() - started;
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('error', () => undefined);
      // The end of the answer, or of the connection when the server closed it right behind the answer.
      const read = () => {
        try {
          outcome.body = JSON.parse(text);
        } catch {
          outcome.body = text;
        }
        resolveAnswer();
      };
      response.once('end', read);
      response.once('close', read);
    }),
  );
  const sent = new Promise<void>((resolveSent) => {
    const stopped = () => outcome.status !== null || outgoing.destroyed;
    const pump = () => {
      while (outcome.bytesSent < options.sendBytes) {
        if (stopped()) return resolveSent();
        const chunk = outcome.bytesSent === 0 ? Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="held.pdf"\r\n\r\n`) : CHUNK;
        const part = chunk.subarray(0, options.sendBytes - outcome.bytesSent);
        outcome.bytesSent += part.length;
        if (!outgoing.write(part)) {
          outgoing.once('drain', pump);
          return;
        }
      }
      resolveSent();
    };
    outgoing.once('close', () => resolveSent());
    outgoing.flushHeaders();
    pump();
  });
  if (options.trickleEveryMs) {
    const every = options.trickleEveryMs;
    void sent.then(() => {
      if (outgoing.destroyed) return;
      trickle = setInterval(() => {
        outcome.bytesSent++;
        outgoing.write('x');
      }, every);
    });
  }
  return {
    sent,
    settled: Promise.all([answered, closed]).then(() => undefined),
    outcome: () => ({ ...outcome }),
    abort: () => {
      aborted = !outcome.closedByServer;
      clearInterval(trickle);
      outgoing.destroy();
    },
  };
}

/**
 * The review's attack: `count` uploads held incomplete at once (by default without a token, declaring 90 MiB),
 * each for `holdMs` unless the server ends it sooner; then every connection still open is dropped. Resolves
 * with what each client saw.
 */
export async function holdBodies(baseUrl: string, options: HeldBodyOptions & { count: number; holdMs: number }): Promise<HeldBodyOutcome[]> {
  const held = Array.from({ length: options.count }, () => holdBody(baseUrl, options));
  await new Promise((resolveHold) => setTimeout(resolveHold, options.holdMs));
  const outcomes = held.map((body) => body.outcome());
  for (const body of held) body.abort();
  return outcomes;
}
