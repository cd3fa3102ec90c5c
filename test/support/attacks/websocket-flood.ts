import WebSocket from 'ws';

/**
 * Floods of the `/ws` channel by one client, as the security review reproduced them, for the e2e suite and for a
 * bench: each takes the service's base URL and resolves with what the flooding client saw.
 */

/** What a flooding client saw. */
export interface FloodOutcome {
  /** Frames the client wrote. */
  sent: number;
  /** The server's messages, parsed where they are JSON (else the raw text). */
  received: unknown[];
  /** How the server ended the connection, if it did before the attack gave up on it. */
  closed: { code: number; afterMs: number } | null;
  /** How long the attack ran, from the open socket to its end. */
  elapsedMs: number;
}

const wsUrlOf = (baseUrl: string) => `${baseUrl.replace(/^http/, 'ws')}/ws`;

/** Opens a socket that records what it receives and when the server closes it. */
async function openRecording(baseUrl: string) {
  const socket = new WebSocket(wsUrlOf(baseUrl));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const started = performance.now();
  const received: unknown[] = [];
  let closed: FloodOutcome['closed'] = null;
  socket.on('message', (data) => {
    const text = data.toString();
    try {
      received.push(JSON.parse(text));
    } catch {
      received.push(text);
    }
  });
  // A server that drops the connection mid-write surfaces here (EPIPE, ECONNRESET): the close that follows says it.
  socket.on('error', () => undefined);
  const closing = new Promise<void>((resolve) =>
    socket.once('close', (code) => {
      closed = { code, afterMs: performance.now() - started };
      resolve();
    }),
  );
  return {
    socket,
    received,
    started,
    closing,
    closed: () => closed,
    /** Waits up to `ms` for the server's close, then drops the socket if it is still open. */
    async end(ms: number) {
      await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, ms))]);
      const outcome = closed;
      if (!outcome) socket.terminate();
      return outcome;
    },
  };
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One socket that never authenticates and sends `{"type":"ping"}` at `perSecond` (in batches every 10 ms) for
 * `durationMs`, or until the server closes it. Reading its answers as they come, then waiting up to `settleMs`
 * for the server's close.
 */
export async function floodUnauthenticatedPings(
  baseUrl: string,
  options: { perSecond?: number; durationMs?: number; settleMs?: number } = {},
): Promise<FloodOutcome> {
  const { perSecond = 1000, durationMs = 3000, settleMs = 2000 } = options;
  const client = await openRecording(baseUrl);
  const batch = Math.max(1, Math.round(perSecond / 100));
  let sent = 0;
  while (performance.now() - client.started < durationMs && !client.closed() && client.socket.readyState === WebSocket.OPEN) {
    const due = Math.floor(((performance.now() - client.started) / 1000) * perSecond) + batch;
    while (sent < due && client.socket.readyState === WebSocket.OPEN) {
      client.socket.send('{"type":"ping"}');
      sent++;
    }
    await tick(10);
  }
  const closed = await client.end(settleMs);
  return { sent, received: client.received, closed, elapsedMs: performance.now() - client.started };
}

/**
 * One socket that stops reading and sends `frames` frames of `{` (not JSON) spread over about `withinMs`, then
 * reads again and waits up to `settleMs` for the server's close: a client that does not read its answers.
 */
export async function floodMalformedFrames(
  baseUrl: string,
  options: { frames?: number; withinMs?: number; settleMs?: number } = {},
): Promise<FloodOutcome> {
  const { frames = 200_000, withinMs = 1000, settleMs = 5000 } = options;
  const client = await openRecording(baseUrl);
  client.socket.pause();
  const batches = Math.max(1, Math.round(withinMs / 10));
  const perBatch = Math.ceil(frames / batches);
  let sent = 0;
  // The client cannot see a close while it does not read; a dropped connection ends the writes by itself.
  while (sent < frames && client.socket.readyState === WebSocket.OPEN) {
    const end = Math.min(frames, sent + perBatch);
    for (; sent < end; sent++) client.socket.send('{');
    await tick(10);
  }
  client.socket.resume();
  const closed = await client.end(settleMs);
  return { sent, received: client.received, closed, elapsedMs: performance.now() - client.started };
}
