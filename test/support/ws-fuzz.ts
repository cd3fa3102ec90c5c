import fc from 'fast-check';
import WebSocket from 'ws';
import { SERVER_EVENT_TYPES } from '../../shared/domain/connections/ports';

/** API Gateway's frame limit, which the local gateway keeps too: the largest frame a client may send. */
const MAX_FRAME_BYTES = 32 * 1024;

/**
 * One frame a fuzzed client sends: text, binary, `auth` with one of the suite's tokens by caller name (resolved
 * when the frame is sent, since tokens change as the suite runs), or a `ping` padded to a size (built when sent,
 * so that a counterexample stays readable).
 */
export type FuzzFrame = { text: string } | { binary: Uint8Array } | { authAs: string } | { pingOfBytes: number };

/** A `ping` with a `pad` field, `bytes` long. */
const paddedPing = (bytes: number) => {
  const head = '{"type":"ping","pad":"';
  return (head + 'x'.repeat(Math.max(0, bytes - head.length - 2)) + '"}').slice(0, bytes);
};

const eventName = fc.oneof(fc.constantFrom(...SERVER_EVENT_TYPES, 'notifications'), fc.string({ maxLength: 40 }));

/** Frames a P client might send, and hostile twists of them. */
const frame = (callers: string[]): fc.Arbitrary<FuzzFrame> =>
  fc.oneof(
    fc.constantFrom('{"type":"ping"}', '{"type":"subscribe","events":[]}', '{"type":"auth"}').map((text) => ({ text })),
    fc.constantFrom(...callers).map((authAs) => ({ authAs })),
    fc.oneof(fc.string({ maxLength: 200 }), fc.integer(), fc.constant(''), fc.constant(null), fc.constant('eyJhbGciOiJub25lIn0.e30.'))
      .map((token) => ({ text: JSON.stringify({ type: 'auth', token }) })),
    fc.oneof(fc.array(eventName, { maxLength: 25 }), fc.jsonValue({ maxDepth: 2 }))
      .map((events) => ({ text: JSON.stringify({ type: 'subscribe', events }) })),
    fc.record({ type: fc.oneof(fc.constantFrom('auth', 'subscribe', 'ping', 'pong', ''), fc.string({ maxLength: 20 })), data: fc.jsonValue({ maxDepth: 2 }) }, { requiredKeys: [] })
      .map((message) => ({ text: JSON.stringify(message) })),
    fc.jsonValue({ maxDepth: 3 }).map((value) => ({ text: JSON.stringify(value) })),
    fc.string({ maxLength: 100 }).map((text) => ({ text })),
    fc.uint8Array({ maxLength: 256 }).map((binary) => ({ binary })),
    fc.integer({ min: 16 * 1024 - 64, max: MAX_FRAME_BYTES }).map((pingOfBytes) => ({ pingOfBytes })),
  );

/** A sequence of frames one connection sends. */
export const frameSequence = (callers: string[]): fc.Arbitrary<FuzzFrame[]> => fc.array(frame(callers), { minLength: 1, maxLength: 20, size: 'max' });

/** What a fuzzed connection received, and how it ended. */
export interface PlayedSequence {
  /** Frames written before the server closed the connection. */
  sent: number;
  /** Each server message as text. */
  received: string[];
  /** The server's close code, when the server closed the connection. */
  closedByServer: number | null;
}

/**
 * Opens /ws, sends the frames one after another, and collects what comes back until the server closes the
 * connection or stays quiet for `quietMs` (at most `waitMs` after the last frame); then closes its side.
 */
export async function playFrames(
  baseUrl: string,
  frames: FuzzFrame[],
  tokens: Record<string, string>,
  options: { quietMs?: number; waitMs?: number } = {},
): Promise<PlayedSequence> {
  const { quietMs = 250, waitMs = 3000 } = options;
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws`);
  socket.on('error', () => undefined);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const received: string[] = [];
  let lastAt = performance.now();
  let closedByServer: number | null = null;
  let closing = false;
  socket.on('message', (data) => {
    received.push(data.toString());
    lastAt = performance.now();
  });
  const closed = new Promise<void>((resolve) =>
    socket.once('close', (code) => {
      if (!closing) closedByServer = code;
      resolve();
    }),
  );
  let sent = 0;
  for (const next of frames) {
    if (socket.readyState !== WebSocket.OPEN) break;
    sent++;
    if ('authAs' in next) socket.send(JSON.stringify({ type: 'auth', token: tokens[next.authAs] ?? 'none' }));
    else if ('binary' in next) socket.send(next.binary, { binary: true });
    else if ('pingOfBytes' in next) socket.send(paddedPing(next.pingOfBytes));
    else socket.send(next.text);
  }
  const sentAt = performance.now();
  lastAt = sentAt;
  while (socket.readyState === WebSocket.OPEN && performance.now() - lastAt < quietMs && performance.now() - sentAt < waitMs) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  // Not open any more: the server is closing it.
  if (socket.readyState === WebSocket.OPEN) {
    closing = true;
    socket.close();
  }
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 2000))]);
  if (socket.readyState !== WebSocket.CLOSED) socket.terminate();
  return { sent, received, closedByServer };
}
