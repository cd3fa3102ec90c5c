import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as a WebDAV server or a proxy saw it; `status` is null while (or because) it was never answered. */
export interface DavRequest {
  method: string;
  /** The request target as sent (percent-encoded), without the query string. */
  path: string;
  /** The Depth header, or null when the request had none. */
  depth: string | null;
  status: number | null;
}

/** How a hung request stops: no response at all, or the status line, headers and first body chunk, then nothing. */
export type HangMode = 'before-response' | 'mid-body';

export interface RecordingProxy {
  /** The proxy's URL for the target's path: `startRecordingProxy('http://127.0.0.1:1/dav/')` gives `http://127.0.0.1:P/dav/`. */
  url: string;
  /** Every request received so far, in arrival order. */
  requests(): DavRequest[];
  /** How many requests of this method arrived (case-insensitive). */
  count(method: string): number;
  propfinds(): number;
  gets(): number;
  /** Forgets the requests recorded so far (the fault switches stay as they are). */
  clear(): void;
  /** From now on every request hangs. */
  hang(mode?: HangMode): void;
  /** The next `n` requests are forwarded, the ones after them hang. */
  hangAfter(n: number, mode?: HangMode): void;
  /** New requests are forwarded again; requests already hung stay hung until their client gives up. */
  resume(): void;
  /** Closes the listener and every connection, hung ones included. */
  stop(): Promise<void>;
}

/**
 * A reverse proxy on 127.0.0.1 in front of a WebDAV server: it forwards each request (method, headers, body
 * streamed both ways) and records it, so a test can count what a client sent (PROPFINDs, GETs) and make the
 * "server" stop answering mid-sync. Only the Host header is rewritten: Apache's and rclone's PROPFIND hrefs are
 * path-only, so they hold through a proxy on another port. A Destination header (MOVE, COPY) is not rewritten.
 */
export async function startRecordingProxy(targetUrl: string): Promise<RecordingProxy> {
  const target = new URL(targetUrl);
  const recorded: DavRequest[] = [];
  let forwardsLeft = Number.POSITIVE_INFINITY;
  let hangMode: HangMode = 'before-response';

  const forward = (req: IncomingMessage, res: ServerResponse, entry: DavRequest, hang: HangMode | null): void => {
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
      (answer: IncomingMessage) => {
        entry.status = answer.statusCode ?? null;
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.headers);
        if (hang === 'mid-body') {
          // The headers and at most one chunk go out; the rest never does, and the client waits for it.
          answer.once('data', (chunk: Buffer) => {
            res.write(chunk.subarray(0, Math.max(1, Math.floor(chunk.length / 2))));
            answer.destroy();
          });
          return;
        }
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.pipe(upstream);
  };

  const server = createServer((req, res) => {
    const entry: DavRequest = {
      method: req.method ?? '',
      path: (req.url ?? '').split('?')[0]!,
      depth: typeof req.headers.depth === 'string' ? req.headers.depth : null,
      status: null,
    };
    recorded.push(entry);
    if (forwardsLeft > 0) {
      forwardsLeft--;
      forward(req, res, entry, null);
    } else if (hangMode === 'mid-body') {
      forward(req, res, entry, 'mid-body');
    } else {
      // Accepted, read, never answered: the body is drained so the client believes it was sent.
      req.resume();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const count = (method: string) => recorded.filter((entry) => entry.method.toUpperCase() === method.toUpperCase()).length;

  return {
    url: `http://127.0.0.1:${port}${target.pathname}`,
    requests: () => recorded.map((entry) => ({ ...entry })),
    count,
    propfinds: () => count('PROPFIND'),
    gets: () => count('GET'),
    clear: () => void recorded.splice(0),
    hang: (mode = 'before-response') => {
      forwardsLeft = 0;
      hangMode = mode;
    },
    hangAfter: (n, mode = 'before-response') => {
      forwardsLeft = n;
      hangMode = mode;
    },
    resume: () => {
      forwardsLeft = Number.POSITIVE_INFINITY;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
