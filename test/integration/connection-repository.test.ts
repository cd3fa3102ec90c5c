import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoConnectionRepository } from '../../shared/adapters/aws/dynamodb/connection-repository';
import type { Clock } from '../../shared/domain/clock';
import { CONNECTION_LIFETIME_SECONDS } from '../../shared/domain/events/ports';
import { freshTable, testClients } from '../support/aws-resources';

/** A clock the test moves forward. */
const movableClock = () => {
  let now = Date.now();
  const clock: Clock & { advance(seconds: number): void } = {
    now: () => new Date(now),
    advance: (seconds) => (now += seconds * 1000),
  };
  return clock;
};

describe('DynamoConnectionRepository', () => {
  let tableName: string;
  let db: Awaited<ReturnType<typeof freshTable>>['db'];
  const repositoryWith = (clock: Clock) => new DynamoConnectionRepository(db, tableName, clock);
  const repository = () => repositoryWith(movableClock());
  const opened = async (repo: DynamoConnectionRepository, at = new Date()) => {
    const id = crypto.randomUUID();
    await repo.open(id, at);
    return id;
  };

  beforeAll(async () => {
    ({ db, tableName } = await freshTable());
  });

  it('keeps a new connection unauthenticated, with every event type and a TTL past API Gateway’s two hours', async () => {
    // Arrange
    const repo = repository();
    const connectedAt = new Date();

    // Act
    const id = await opened(repo, connectedAt);

    // Assert
    expect(await repo.get(id)).toEqual({ id, userId: null, subscriptions: null, connectedAt: connectedAt.toISOString() });
    const { Item } = await testClients().dynamo.send(new GetCommand({ TableName: tableName, Key: { pk: `CONN#${id}`, sk: 'META' } }));
    expect(Item?.['ttl']).toBeGreaterThan(connectedAt.getTime() / 1000 + CONNECTION_LIFETIME_SECONDS);
  });

  it('binds a connection to the user who authenticates it', async () => {
    // Arrange
    const repo = repository();
    const id = await opened(repo);
    const userId = crypto.randomUUID();

    // Act
    const outcome = await repo.authenticate(id, userId, 5);

    // Assert
    expect(outcome).toBe('authenticated');
    expect((await repo.get(id))?.userId).toBe(userId);
  });

  it('refuses to hand an authenticated connection to another user', async () => {
    // Arrange
    const repo = repository();
    const id = await opened(repo);
    await repo.authenticate(id, crypto.randomUUID(), 5);

    // Act
    const outcome = await repo.authenticate(id, crypto.randomUUID(), 5);

    // Assert
    expect(outcome).toBe('other_user');
  });

  it('answers gone for a connection it does not know', async () => {
    // Arrange
    const repo = repository();

    // Act
    const outcome = await repo.authenticate(crypto.randomUUID(), crypto.randomUUID(), 5);

    // Assert
    expect(outcome).toBe('gone');
  });

  it('admits exactly the limit when more connections of one user authenticate at once', async () => {
    // Arrange
    const repo = repository();
    const userId = crypto.randomUUID();
    const ids = await Promise.all(Array.from({ length: 9 }, () => opened(repo)));

    // Act
    const outcomes = await Promise.all(ids.map((id) => repo.authenticate(id, userId, 5)));

    // Assert
    expect(outcomes.filter((o) => o === 'authenticated')).toHaveLength(5);
    expect(outcomes.filter((o) => o === 'limit')).toHaveLength(4);
  });

  it('frees a place in the limit when a connection is removed', async () => {
    // Arrange
    const repo = repository();
    const userId = crypto.randomUUID();
    const ids = await Promise.all(Array.from({ length: 2 }, () => opened(repo)));
    await repo.authenticate(ids[0]!, userId, 1);
    await repo.remove(ids[0]!);

    // Act
    const outcome = await repo.authenticate(ids[1]!, userId, 1);

    // Assert
    expect(outcome).toBe('authenticated');
  });

  it('frees one place however many times a connection is removed', async () => {
    // Arrange
    const repo = repository();
    const userId = crypto.randomUUID();
    const ids = await Promise.all(Array.from({ length: 4 }, () => opened(repo)));
    for (const id of ids.slice(0, 2)) await repo.authenticate(id, userId, 2);
    await Promise.all([repo.remove(ids[0]!), repo.remove(ids[0]!), repo.remove(ids[0]!)]);

    // Act
    const outcomes = [await repo.authenticate(ids[2]!, userId, 2), await repo.authenticate(ids[3]!, userId, 2)];

    // Assert
    expect(outcomes).toEqual(['authenticated', 'limit']);
  });

  it('no longer counts connections that expired without a disconnect', async () => {
    // Arrange
    const clock = movableClock();
    const repo = repositoryWith(clock);
    const userId = crypto.randomUUID();
    const stale = await opened(repo, clock.now());
    await repo.authenticate(stale, userId, 1);
    clock.advance(CONNECTION_LIFETIME_SECONDS + 3600);
    const fresh = await opened(repo, clock.now());

    // Act
    const outcome = await repo.authenticate(fresh, userId, 1);

    // Assert
    expect(outcome).toBe('authenticated');
  });

  it('lists one user’s authenticated connections, or everyone’s, never unauthenticated ones', async () => {
    // Arrange
    const repo = repository();
    const [alice, bob] = [crypto.randomUUID(), crypto.randomUUID()];
    const [a1, a2, b1, anonymous] = await Promise.all(Array.from({ length: 4 }, () => opened(repo)));
    await repo.authenticate(a1!, alice, 5);
    await repo.authenticate(a2!, alice, 5);
    await repo.authenticate(b1!, bob, 5);

    // Act
    const [ofAlice, ofEveryone] = await Promise.all([repo.listAuthenticated({ userId: alice }), repo.listAuthenticated('everyone')]);

    // Assert
    expect(ofAlice.map((c) => c.id).sort()).toEqual([a1, a2].sort());
    expect(ofEveryone.map((c) => c.id)).toEqual(expect.arrayContaining([a1, a2, b1]));
    expect(ofEveryone.map((c) => c.id)).not.toContain(anonymous);
  });

  it('keeps the event types a connection subscribed to', async () => {
    // Arrange
    const repo = repository();
    const id = await opened(repo);
    const userId = crypto.randomUUID();
    await repo.authenticate(id, userId, 5);

    // Act
    const stored = await repo.subscribe(id, ['notification', 'queue_status']);

    // Assert
    expect(stored).toBe(true);
    expect((await repo.listAuthenticated({ userId }))[0]?.subscriptions).toEqual(['notification', 'queue_status']);
  });

  it('does not subscribe a connection it does not know', async () => {
    // Arrange
    const repo = repository();

    // Act
    const stored = await repo.subscribe(crypto.randomUUID(), ['notification']);

    // Assert
    expect(stored).toBe(false);
  });

  describe('sessions: the token each connection lives by', () => {
    const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
    const session = (tokenId: string, tokenVersion = 0) => ({ tokenId, tokenVersion, expiresAt: inAnHour() });
    const authenticatedWith = async (repo: DynamoConnectionRepository, userId: string, tokenId: string, tokenVersion = 0) => {
      const id = await opened(repo);
      await repo.authenticate(id, userId, 5, session(tokenId, tokenVersion));
      return id;
    };

    it('keeps the token a connection authenticated with', async () => {
      // Arrange
      const repo = repository();
      const userId = crypto.randomUUID();
      const stored = session('token-1', 3);

      // Act
      const id = await opened(repo);
      await repo.authenticate(id, userId, 5, stored);

      // Assert
      expect((await repo.get(id))?.session).toEqual(stored);
      expect((await repo.listAuthenticated({ userId }))[0]?.session).toEqual(stored);
    });

    it('ends the connections of one token only, and says which it ended', async () => {
      // Arrange
      const repo = repository();
      const userId = crypto.randomUUID();
      const [loggedOut, other] = [await authenticatedWith(repo, userId, 'old'), await authenticatedWith(repo, userId, 'other')];

      // Act
      const ended = await repo.endSessions({ userId, tokenId: 'old' }, 'logout');

      // Assert
      expect(ended).toEqual([loggedOut]);
      expect((await repo.get(loggedOut))?.ended).toBe('logout');
      expect((await repo.get(other))?.ended).toBeUndefined();
    });

    it('ends the connections of older token versions, not those of the current one', async () => {
      // Arrange
      const repo = repository();
      const userId = crypto.randomUUID();
      const [before, after] = [await authenticatedWith(repo, userId, 'a', 0), await authenticatedWith(repo, userId, 'b', 1)];

      // Act
      const ended = await repo.endSessions({ userId, tokenVersionBelow: 1 }, 'password_changed');

      // Assert
      expect(ended).toEqual([before]);
      expect((await repo.get(after))?.ended).toBeUndefined();
    });

    it('ends a session once: a second call finds nothing left to end', async () => {
      // Arrange
      const repo = repository();
      const userId = crypto.randomUUID();
      await authenticatedWith(repo, userId, 'once');
      await repo.endSessions({ userId }, 'logout');

      // Act
      const again = await repo.endSessions({ userId }, 'logout');

      // Assert
      expect(again).toEqual([]);
    });

    it('moves the connections of a refreshed token to the new token', async () => {
      // Arrange
      const repo = repository();
      const userId = crypto.randomUUID();
      const id = await authenticatedWith(repo, userId, 'before-refresh');
      const fresh = session('after-refresh');

      // Act
      const moved = await repo.moveSessions({ userId, tokenId: 'before-refresh' }, fresh);

      // Assert
      expect(moved).toEqual([id]);
      expect((await repo.get(id))?.session).toEqual(fresh);
    });

    it('replaces the session when the same user authenticates again with another token', async () => {
      // Arrange
      const repo = repository();
      const userId = crypto.randomUUID();
      const id = await authenticatedWith(repo, userId, 'first');

      // Act
      const outcome = await repo.authenticate(id, userId, 5, session('second'));

      // Assert
      expect(outcome).toBe('authenticated');
      expect((await repo.get(id))?.session?.tokenId).toBe('second');
    });

    it('answers gone when a connection whose session ended authenticates again', async () => {
      // Arrange
      const repo = repository();
      const userId = crypto.randomUUID();
      const id = await authenticatedWith(repo, userId, 'ended');
      await repo.endSessions({ userId }, 'logout');

      // Act
      const outcome = await repo.authenticate(id, userId, 5, session('later'));

      // Assert
      expect(outcome).toBe('gone');
    });
  });
});
