import WebSocket from 'ws';
import { asyncApiViolation } from './asyncapi-validator';

/** A message of the /ws channel as a client sees it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ChannelMessage = { type: string; data: Record<string, any> };

interface Waiter {
  match: (m: ChannelMessage) => boolean;
  from: number;
  resolve: (m: ChannelMessage) => void;
  reject: (error: Error) => void;
}

/**
 * A WebSocket client of /ws for tests: keeps every message it receives, in order, and lets a test wait for
 * the next one matching a predicate, or for the server to close the connection.
 *
 * Every message received is checked against the channel's AsyncAPI document (test/support/asyncapi-validator.ts).
 * A message that breaks it fails the test: whatever the test is waiting for rejects with the violation, and so
 * do later waits and `close()` (which the suites' cleanup calls), so a violation nobody waited on still fails.
 */
export class ChannelClient {
  readonly received: ChannelMessage[] = [];
  readonly closed: Promise<{ code: number }>;
  private waiters: Waiter[] = [];
  /** The first message that broke the AsyncAPI document. */
  private violation: Error | null = null;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const text = data.toString();
      let message: ChannelMessage;
      try {
        message = JSON.parse(text) as ChannelMessage;
      } catch {
        this.fail(`/ws sent a message that is not JSON: ${text.slice(0, 500)}`);
        return;
      }
      const violation = asyncApiViolation(message);
      if (violation) this.fail(violation);
      this.received.push(message);
      this.waiters = this.waiters.filter((waiter) => !this.settle(waiter));
    });
    this.closed = new Promise((resolve) => socket.once('close', (code) => resolve({ code })));
  }

  static async open(baseUrl: string): Promise<ChannelClient> {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws`);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    return new ChannelClient(socket);
  }

  /**
   * Opens a connection and authenticates it, resolving once the server said auth_success. An event may come
   * just before it (the connection receives events from the moment it is stored as authenticated), so the
   * answer is the first auth_success or error.
   */
  static async authenticated(baseUrl: string, token: string): Promise<ChannelClient> {
    const client = await ChannelClient.open(baseUrl);
    const reply = await client.auth(token);
    if (reply.type !== 'auth_success') throw new Error(`auth failed: ${JSON.stringify(reply)}`);
    return client;
  }

  /** Sends `auth` and resolves with its answer: the first auth_success or error (an event may come before it). */
  auth(token: string): Promise<ChannelMessage> {
    const from = this.received.length;
    this.send({ type: 'auth', token });
    return this.next((m) => m.type === 'auth_success' || m.type === 'error', 10_000, from);
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** Sends a message and resolves with the next message the server sends (its answer on a quiet channel). */
  request(message: unknown): Promise<ChannelMessage> {
    const from = this.received.length;
    this.send(message);
    return this.next(() => true, 10_000, from);
  }

  /** The first message received at or after index `from` (default: any so far) that matches. */
  next(match: (m: ChannelMessage) => boolean, timeoutMs = 10_000, from = 0): Promise<ChannelMessage> {
    return new Promise((resolve, reject) => {
      if (this.violation) return reject(this.violation);
      const timer = setTimeout(() => reject(new Error(`no matching message within ${timeoutMs} ms`)), timeoutMs);
      const waiter: Waiter = {
        match,
        from,
        resolve: (m: ChannelMessage) => {
          clearTimeout(timer);
          resolve(m);
        },
        reject: (error: Error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      if (!this.settle(waiter)) this.waiters.push(waiter);
    });
  }

  get isOpen(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  /** Closes the connection; rejects if the server sent anything the AsyncAPI document does not allow. */
  async close(): Promise<void> {
    if (this.socket.readyState !== WebSocket.CLOSED) {
      this.socket.close();
      await this.closed;
    }
    if (this.violation) throw this.violation;
  }

  /** Records the first violation and fails every pending wait with it. */
  private fail(reason: string): void {
    this.violation ??= new Error(reason);
    for (const waiter of this.waiters.splice(0)) waiter.reject(this.violation);
  }

  private settle(waiter: Waiter): boolean {
    const found = this.received.slice(waiter.from).find(waiter.match);
    if (found) waiter.resolve(found);
    return found !== undefined;
  }
}
