import WebSocket from 'ws';

/** A message of the /ws channel as a client sees it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ChannelMessage = { type: string; data: Record<string, any> };

/**
 * A WebSocket client of /ws for tests: keeps every message it receives, in order, and lets a test wait for
 * the next one matching a predicate, or for the server to close the connection.
 */
export class ChannelClient {
  readonly received: ChannelMessage[] = [];
  readonly closed: Promise<{ code: number }>;
  private waiters: { match: (m: ChannelMessage) => boolean; from: number; resolve: (m: ChannelMessage) => void }[] = [];

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.received.push(JSON.parse(data.toString()) as ChannelMessage);
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
      const timer = setTimeout(() => reject(new Error(`no matching message within ${timeoutMs} ms`)), timeoutMs);
      const waiter = {
        match,
        from,
        resolve: (m: ChannelMessage) => {
          clearTimeout(timer);
          resolve(m);
        },
      };
      if (!this.settle(waiter)) this.waiters.push(waiter);
    });
  }

  get isOpen(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  async close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return;
    this.socket.close();
    await this.closed;
  }

  private settle(waiter: { match: (m: ChannelMessage) => boolean; from: number; resolve: (m: ChannelMessage) => void }): boolean {
    const found = this.received.slice(waiter.from).find(waiter.match);
    if (found) waiter.resolve(found);
    return found !== undefined;
  }
}
