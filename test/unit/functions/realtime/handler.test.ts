import type { APIGatewayProxyResultV2, APIGatewayProxyWebsocketEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { createRealtimeHandler, type RealtimeDeps } from '../../../../functions/realtime/handler';
import { AppError } from '../../../../shared/domain/errors';
import type { MessageBudgetLimits } from '../../../../shared/domain/connections/message-budget';
import type { Connection, ConnectionRepository } from '../../../../shared/domain/connections/ports';

const LIMITS: MessageBudgetLimits = { burst: 8, perSecond: 1, refusals: 2, beforeAuthMessages: 5, beforeAuthBytes: 4096, invalidMessages: 3 };
const START = new Date('2026-01-05T10:00:00Z');
const TOKEN = 'good-token';

/**
 * The realtime routes over an in-memory connection store that counts its reads, a sender that records what it
 * pushed and closed, and a clock the test moves.
 */
function realtime() {
  const stored = new Map<string, Connection>();
  const reads = { count: 0 };
  const pushed: { connectionId: string; message: unknown }[] = [];
  const closed: string[] = [];
  const clock = { at: START.getTime(), now: () => new Date(clock.at) };
  const connections: ConnectionRepository = {
    open: async (id, connectedAt) => void stored.set(id, { id, userId: null, workspaceId: null, subscriptions: null, connectedAt: connectedAt.toISOString() }),
    get: async (id) => {
      reads.count++;
      return stored.get(id) ?? null;
    },
    authenticate: async (id, member, _limit, session) => {
      const connection = stored.get(id);
      if (!connection) return 'gone';
      stored.set(id, { ...connection, ...member, session });
      return 'authenticated';
    },
    subscribe: async () => true,
    remove: async (id) => void stored.delete(id),
    listAuthenticated: async () => [],
    endSessions: async () => [],
    moveSessions: async () => [],
  };
  const deps: RealtimeDeps = {
    connections,
    clock,
    wsAuthTimeoutSeconds: 10,
    connectionSender: {
      send: async (connectionId, message) => {
        pushed.push({ connectionId, message: JSON.parse(message) });
        return 'sent';
      },
      close: async (connectionId) => void closed.push(connectionId),
    },
    authenticate: async (token) => {
      if (token !== TOKEN) throw new AppError('UNAUTHORIZED', 'Invalid token');
      return { userId: 'u1', username: 'ada', email: 'ada@example.com', role: 'editor', workspaceId: 'w1', jti: 'j1', tokenExpiresAt: new Date(START.getTime() + 3_600_000), tokenVersion: 0 };
    },
  };
  return { handler: createRealtimeHandler(deps, LIMITS), connections, reads, pushed, closed, clock };
}

const event = (routeKey: string, connectionId: string, body?: string): APIGatewayProxyWebsocketEventV2 =>
  ({ requestContext: { routeKey, connectionId }, body, isBase64Encoded: false }) as APIGatewayProxyWebsocketEventV2;

const replyOf = (result: APIGatewayProxyResultV2) => {
  const body = typeof result === 'object' ? result.body : undefined;
  return body === undefined ? undefined : JSON.parse(body);
};

/** Sends the messages one after another on the connection and returns the route responses. */
async function sendAll(handler: ReturnType<typeof realtime>['handler'], connectionId: string, messages: string[]) {
  const replies: unknown[] = [];
  for (const message of messages) replies.push(replyOf(await handler(event('$default', connectionId, message))));
  return replies;
}

const PING = JSON.stringify({ type: 'ping' });

describe('the realtime routes under a flood', () => {
  it('reads the state of an unauthenticated connection at most for its allowance before auth, then closes it with RATE_LIMITED', async () => {
    // Arrange
    const { handler, reads, pushed, closed } = realtime();
    await handler(event('$connect', 'c1'));

    // Act
    const replies = await sendAll(handler, 'c1', Array(50).fill(PING));

    // Assert
    expect(reads.count).toBe(5);
    expect(replies.slice(0, 5)).toEqual(Array(5).fill(expect.objectContaining({ data: expect.objectContaining({ code: 'UNAUTHORIZED' }) })));
    expect(replies.slice(5)).toEqual(Array(45).fill(undefined));
    expect(pushed).toEqual([{ connectionId: 'c1', message: expect.objectContaining({ data: expect.objectContaining({ code: 'RATE_LIMITED' }) }) }]);
    expect(closed).toEqual(['c1']);
  });

  it('answers malformed messages without reading the connection state, and closes the connection at the last one allowed', async () => {
    // Arrange
    const { handler, reads, pushed, closed } = realtime();
    await handler(event('$connect', 'c1'));

    // Act
    const replies = await sendAll(handler, 'c1', ['{', '{"type":"shout"}', 'null', '{']);

    // Assert
    expect(reads.count).toBe(0);
    expect(replies.slice(0, 2)).toEqual(Array(2).fill(expect.objectContaining({ data: expect.objectContaining({ code: 'VALIDATION_ERROR' }) })));
    expect(replies.slice(2)).toEqual([undefined, undefined]);
    expect(pushed.map((p) => p.message)).toEqual([expect.objectContaining({ data: expect.objectContaining({ code: 'VALIDATION_ERROR', details: { reason: 'invalid_messages', limit: 3 } }) })]);
    expect(closed).toEqual(['c1']);
  });

  it('answers an authenticated connection over its rate with RATE_LIMITED, without a read, then closes it', async () => {
    // Arrange
    const { handler, reads, pushed, closed } = realtime();
    await handler(event('$connect', 'c1'));
    await sendAll(handler, 'c1', [JSON.stringify({ type: 'auth', token: TOKEN })]);

    // Act
    const replies = await sendAll(handler, 'c1', Array(11).fill(PING));

    // Assert: the auth took one of the burst's 8
    expect(replies.slice(0, 7)).toEqual(Array(7).fill({ type: 'pong', data: {} }));
    expect(replies.slice(7, 9)).toEqual(Array(2).fill(expect.objectContaining({ data: expect.objectContaining({ code: 'RATE_LIMITED' }) })));
    expect(replies.slice(9)).toEqual([undefined, undefined]);
    expect(reads.count).toBe(7);
    expect(pushed.map((p) => p.message)).toEqual([expect.objectContaining({ data: expect.objectContaining({ code: 'RATE_LIMITED' }) })]);
    expect(closed).toEqual(['c1']);
  });

  it('serves an authenticated connection that keeps within its rate for as long as it lives', async () => {
    // Arrange
    const { handler, clock } = realtime();
    await handler(event('$connect', 'c1'));
    await sendAll(handler, 'c1', [JSON.stringify({ type: 'auth', token: TOKEN })]);

    // Act
    const replies: unknown[] = [];
    for (let second = 1; second <= 30; second++) {
      clock.at = START.getTime() + second * 1000;
      replies.push(...(await sendAll(handler, 'c1', [PING])));
    }

    // Assert
    expect(replies).toEqual(Array(30).fill({ type: 'pong', data: {} }));
  });

  it('lifts the allowance before auth for a connection another instance authenticated, once it reads that state', async () => {
    // Arrange: the auth went to one instance, the pings go to another over the same store
    const first = realtime();
    await first.handler(event('$connect', 'c1'));
    await sendAll(first.handler, 'c1', [JSON.stringify({ type: 'auth', token: TOKEN })]);
    const other = createRealtimeHandler({ ...depsOf(first) }, LIMITS);

    // Act
    const replies: unknown[] = [];
    for (let second = 1; second <= 8; second++) {
      first.clock.at = START.getTime() + second * 1000;
      replies.push(...(await sendAll(other, 'c1', [PING])));
    }

    // Assert
    expect(replies).toEqual(Array(8).fill({ type: 'pong', data: {} }));
  });
});

/** The deps of a test's handler, to build a second instance over the same store, sender and clock. */
function depsOf(test: ReturnType<typeof realtime>): RealtimeDeps {
  return {
    connections: test.connections,
    clock: test.clock,
    wsAuthTimeoutSeconds: 10,
    connectionSender: { send: async () => 'sent', close: async () => undefined },
    authenticate: async () => {
      throw new AppError('UNAUTHORIZED', 'Invalid token');
    },
  };
}
