import { decide, type RatePolicy } from '../limits/rate-policy';

/**
 * What one WebSocket connection may send, checked in memory before a message costs anything (a database read,
 * a parse): a token bucket for every message, a small allowance before the connection is known to be
 * authenticated, and a few invalid messages.
 */
export interface MessageBudgetLimits {
  /** Every connection: at most `burst` messages at once, refilled at `perSecond`. */
  burst: number;
  perSecond: number;
  /** Over-budget messages in a row answered RATE_LIMITED; the next one closes the connection. */
  refusals: number;
  /** Messages and bytes a connection may send before it is known to be authenticated; one more closes it. */
  beforeAuthMessages: number;
  beforeAuthBytes: number;
  /** Invalid messages (not JSON, unknown type, too large) a connection may send; the last one closes it. */
  invalidMessages: number;
}

/**
 * The budget of every /ws connection. A P client sends `auth`, a `subscribe` or two and an occasional `ping`:
 * a burst of 20 and 2 a second (about the HTTP API's per-user 100 a minute, burst 20) leave it far inside.
 * Before auth a client needs one message; ten leave room for a few sent before `auth_success` and an `auth`
 * sent again. A JWT is well under 2 KB and no valid message is above 16 KB, so 32 KB holds any honest `auth`.
 */
export const MESSAGE_BUDGET: MessageBudgetLimits = {
  burst: 20,
  perSecond: 2,
  refusals: 3,
  beforeAuthMessages: 10,
  beforeAuthBytes: 32 * 1024,
  invalidMessages: 10,
};

/** An error message of the P channel, `{type: "error", data: {code, message, details}}`. */
export interface ChannelError {
  type: 'error';
  data: { code: string; message: string; details: Record<string, unknown> };
}

/**
 * What to do with a message: serve it; answer it with `error` and keep the connection (`refuse`); send `error`
 * as the last message and close the connection (`close`); or nothing, for a connection already being closed.
 */
export type Admission = { verdict: 'serve' } | { verdict: 'refuse' | 'close'; error: ChannelError } | { verdict: 'drop' };

const channelError = (code: string, message: string, details: Record<string, unknown>): ChannelError => ({
  type: 'error',
  data: { code, message, details },
});

/**
 * One connection's budget. Whether the connection is authenticated is what this memory has learnt
 * ({@link MessageBudget.authenticated}), never assumed: where several instances serve one connection (Lambda),
 * one that has not seen its `auth` counts its messages as before auth until a read of its state says otherwise.
 */
export class MessageBudget {
  private tat: number | null = null;
  private refusedInRow = 0;
  private beforeAuth = { messages: 0, bytes: 0 };
  private invalid = 0;
  private known = false;
  private closing = false;

  constructor(private readonly limits: MessageBudgetLimits) {}

  /** Takes one message of `bytes` at `nowMs` from the budget and says what to do with it. */
  admit(bytes: number, nowMs: number): Admission {
    if (this.closing) return { verdict: 'drop' };
    const { limits } = this;
    if (!this.known) {
      this.beforeAuth.messages++;
      this.beforeAuth.bytes += bytes;
      if (this.beforeAuth.messages > limits.beforeAuthMessages || this.beforeAuth.bytes > limits.beforeAuthBytes) {
        return this.close(
          channelError('RATE_LIMITED', `At most ${limits.beforeAuthMessages} messages (${limits.beforeAuthBytes} bytes) before auth; closing`, {
            reason: 'before_auth',
            limit_messages: limits.beforeAuthMessages,
            limit_bytes: limits.beforeAuthBytes,
          }),
        );
      }
    }
    const policy: RatePolicy = { perMinute: limits.perSecond * 60, burst: limits.burst };
    const { decision, nextTat } = decide(policy, this.tat, nowMs);
    this.tat = nextTat;
    if (decision.allowed) {
      this.refusedInRow = 0;
      return { verdict: 'serve' };
    }
    const details = { reason: 'message_rate', burst: limits.burst, per_second: limits.perSecond, retry_after_seconds: decision.retryAfterSeconds };
    const message = `At most ${limits.burst} messages at once and ${limits.perSecond} a second`;
    if (++this.refusedInRow > limits.refusals) return this.close(channelError('RATE_LIMITED', `${message}; closing`, details));
    return { verdict: 'refuse', error: channelError('RATE_LIMITED', message, details) };
  }

  /**
   * Counts an invalid message. Null while the connection may send more; at the last one allowed, the error to
   * close it with.
   */
  invalidMessage(): ChannelError | null {
    if (++this.invalid < this.limits.invalidMessages) return null;
    this.closing = true;
    return channelError('VALIDATION_ERROR', `${this.limits.invalidMessages} invalid messages; closing`, {
      reason: 'invalid_messages',
      limit: this.limits.invalidMessages,
    });
  }

  /** The connection is authenticated (this instance saw it, or read it): the allowance before auth no longer applies. */
  authenticated(): void {
    this.known = true;
  }

  private close(error: ChannelError): Admission {
    this.closing = true;
    return { verdict: 'close', error };
  }
}

/**
 * The budgets of the connections one process (or Lambda instance) serves. Bounded: where a connection's
 * $disconnect goes to another instance its budget is never forgotten, so the oldest make room; a connection
 * whose budget was dropped starts a fresh one, as on a new instance.
 */
export class MessageBudgets {
  private readonly budgets = new Map<string, MessageBudget>();

  constructor(
    private readonly limits: MessageBudgetLimits = MESSAGE_BUDGET,
    private readonly capacity = 20_000,
  ) {}

  /** The connection's budget, a fresh one for a connection not seen yet. */
  of(connectionId: string): MessageBudget {
    let budget = this.budgets.get(connectionId);
    if (!budget) {
      if (this.budgets.size >= this.capacity) this.budgets.delete(this.budgets.keys().next().value!);
      budget = new MessageBudget(this.limits);
      this.budgets.set(connectionId, budget);
    }
    return budget;
  }

  /** Forgets a closed connection. */
  forget(connectionId: string): void {
    this.budgets.delete(connectionId);
  }

  /** How many connections have a budget. */
  get size(): number {
    return this.budgets.size;
  }
}
