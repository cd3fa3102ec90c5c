import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoConnectionRepository } from '../../../../../shared/adapters/aws/dynamodb/connection-repository';
import type { Clock } from '../../../../../shared/domain/clock';
import { CONNECTION_LIFETIME_SECONDS } from '../../../../../shared/domain/connections/ports';
import { movableClock } from '../../../../support/movable-clock';
import { freshTable, testClients } from '../../../../support/aws-resources';

/** One workspace for the tests that are not about workspaces. */
const workspaceId = crypto.randomUUID();
const member = (userId: string, workspace = workspaceId) => ({ userId, workspaceId: workspace });

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
    expect(await repo.get(id)).toEqual({ id, userId: null, workspaceId: null, subscriptions: null, connectedAt: connectedAt.toISOString() });
    const { Item } = await testClients().dynamo.send(new GetCommand({ TableName: tableName, Key: { pk: `CONN#${id}`, sk: 'META' } }));
    expect(Item?.['ttl']).toBeGreaterThan(connectedAt.getTime() / 1000 + CONNECTION_LIFETIME_SECONDS);
  });

  it('binds a connection to the user who authenticates it and to their workspace', async () => {
    // Arrange
    const repo = repository();
    const id = await opened(repo);
    const userId = crypto.randomUUID();

    // Act
    const outcome = await repo.authenticate(id, member(userId), 5);

    // Assert
    expect(outcome).toBe('authenticated');
    expect(await repo.get(id)).toMatchObject({ userId, workspaceId });
  });

  it('refuses to move an authenticated connection to another workspace, even for the same user id', async () => {
    // Arrange
    const repo = repository();
    const id = await opened(repo);
    const userId = crypto.randomUUID();
    await repo.authenticate(id, member(userId), 5);

    // Act
    const outcome = await repo.authenticate(id, member(userId, crypto.randomUUID()), 5);

    // Assert
    expect(outcome).toBe('other_user');
    expect((await repo.get(id))?.workspaceId).toBe(workspaceId);
  });

  it('refuses to hand an authenticated connection to another user', async () => {
    // Arrange
    const repo = repository();
    const id = await opened(repo);
    await repo.authenticate(id, member(crypto.randomUUID()), 5);

    // Act
    const outcome = await repo.authenticate(id, member(crypto.randomUUID()), 5);

    // Assert
    expect(outcome).toBe('other_user');
  });

  it('answers gone for a connection it does not know', async () => {
    // Arrange
    const repo = repository();

    // Act
    const outcome = await repo.authenticate(crypto.randomUUID(), member(crypto.randomUUID()), 5);

    // Assert
    expect(outcome).toBe('gone');
  });

  it('admits exactly the limit when more connections of one user authenticate at once', async () => {
    // Arrange
    const repo = repository();
    const userId = crypto.randomUUID();
    const ids = await Promise.all(Array.from({ length: 9 }, () => opened(repo)));

    // Act
    const outcomes = await Promise.all(ids.map((id) => repo.authenticate(id, member(userId), 5)));

    // Assert
    expect(outcomes.filter((o) => o === 'authenticated')).toHaveLength(5);
    expect(outcomes.filter((o) => o === 'limit')).toHaveLength(4);
  });

  it('frees a place in the limit when a connection is removed', async () => {
    // Arrange
    const repo = repository();
    const userId = crypto.randomUUID();
    const ids = await Promise.all(Array.from({ length: 2 }, () => opened(repo)));
    await repo.authenticate(ids[0]!, member(userId), 1);
    await repo.remove(ids[0]!);

    // Act
    const outcome = await repo.authenticate(ids[1]!, member(userId), 1);

    // Assert
    expect(outcome).toBe('authenticated');
  });

  it('frees one place however many times a connection is removed', async () => {
    // Arrange
    const repo = repository();
    const userId = crypto.randomUUID();
    const ids = await Promise.all(Array.from({ length: 4 }, () => opened(repo)));
    for (const id of ids.slice(0, 2)) await repo.authenticate(id, member(userId), 2);
    await Promise.all([repo.remove(ids[0]!), repo.remove(ids[0]!), repo.remove(ids[0]!)]);

    // Act
    const outcomes = [await repo.authenticate(ids[2]!, member(userId), 2), await repo.authenticate(ids[3]!, member(userId), 2)];

    // Assert
    expect(outcomes).toEqual(['authenticated', 'limit']);
  });

  it('no longer counts connections that expired without a disconnect', async () => {
    // Arrange
    const clock = movableClock();
    const repo = repositoryWith(clock);
    const userId = crypto.randomUUID();
    const stale = await opened(repo, clock.now());
    await repo.authenticate(stale, member(userId), 1);
    clock.advance(CONNECTION_LIFETIME_SECONDS + 3600);
    const fresh = await opened(repo, clock.now());

    // Act
    const outcome = await repo.authenticate(fresh, member(userId), 1);

    // Assert
    expect(outcome).toBe('authenticated');
  });

  describe('listings by audience', () => {
    const ids = (connections: { id: string }[]) => connections.map((c) => c.id).sort();
    /** Alice and Bob in one workspace, Carol in another, and a connection that never authenticated. */
    const twoWorkspaces = async () => {
      const repo = repository();
      const [ours, theirs] = [crypto.randomUUID(), crypto.randomUUID()];
      const [alice, bob, carol] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
      const [a1, a2, b1, c1, anonymous] = await Promise.all(Array.from({ length: 5 }, () => opened(repo)));
      await repo.authenticate(a1!, member(alice, ours), 5);
      await repo.authenticate(a2!, member(alice, ours), 5);
      await repo.authenticate(b1!, member(bob, ours), 5);
      await repo.authenticate(c1!, member(carol, theirs), 5);
      return { repo, ours, theirs, alice, carol, a1: a1!, a2: a2!, b1: b1!, c1: c1!, anonymous: anonymous! };
    };

    it('lists one workspace’s authenticated connections, none of another workspace and no unauthenticated one', async () => {
      // Arrange
      const { repo, ours, a1, a2, b1 } = await twoWorkspaces();

      // Act
      const listed = await repo.listAuthenticated({ workspaceId: ours });

      // Assert
      expect(ids(listed)).toEqual([a1, a2, b1].sort());
    });

    it('lists one user’s authenticated connections within a workspace', async () => {
      // Arrange
      const { repo, ours, alice, a1, a2 } = await twoWorkspaces();

      // Act
      const listed = await repo.listAuthenticated({ userId: alice, workspaceId: ours });

      // Assert
      expect(ids(listed)).toEqual([a1, a2].sort());
    });

    it('lists nothing for a user asked for in a workspace that is not theirs', async () => {
      // Arrange
      const { repo, theirs, alice } = await twoWorkspaces();

      // Act
      const listed = await repo.listAuthenticated({ userId: alice, workspaceId: theirs });

      // Assert
      expect(listed).toEqual([]);
    });

    it('lists one user’s authenticated connections when no workspace is given', async () => {
      // Arrange
      const { repo, alice, a1, a2 } = await twoWorkspaces();

      // Act
      const listed = await repo.listAuthenticated({ userId: alice });

      // Assert
      expect(ids(listed)).toEqual([a1, a2].sort());
    });

    it('lists the authenticated connections of every workspace for the deployment, never unauthenticated ones', async () => {
      // Arrange
      const { repo, a1, a2, b1, c1, anonymous } = await twoWorkspaces();

      // Act
      const listed = await repo.listAuthenticated('all');

      // Assert
      expect(ids(listed)).toEqual(expect.arrayContaining([a1, a2, b1, c1]));
      expect(ids(listed)).not.toContain(anonymous);
    });

    it('leaves a removed connection out of the deployment’s listing', async () => {
      // Arrange
      const { repo, a1 } = await twoWorkspaces();

      // Act
      await repo.remove(a1);

      // Assert
      expect(ids(await repo.listAuthenticated('all'))).not.toContain(a1);
    });
  });

  describe('connections recorded before workspaces', () => {
    /** A connection as the previous version stored it: in gsi1 `CONNS`, without a workspace, counted for its user. */
    const legacyConnection = async (userId: string) => {
      const id = crypto.randomUUID();
      const ttl = Math.ceil(Date.now() / 1000) + CONNECTION_LIFETIME_SECONDS;
      await testClients().dynamo.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: tableName,
                Item: {
                  pk: `CONN#${id}`,
                  sk: 'META',
                  connection_id: id,
                  connected_at: new Date().toISOString(),
                  ttl,
                  user_id: userId,
                  gsi1pk: 'CONNS',
                  gsi1sk: `${userId}#${id}`,
                },
              },
            },
            { Put: { TableName: tableName, Item: { pk: `USER#${userId}`, sk: 'CONNECTIONS', live: { [id]: ttl } } } },
          ],
        }),
      );
      return id;
    };

    it('reaches no workspace’s listing, its user’s workspace included', async () => {
      // Arrange
      const repo = repository();
      const userId = crypto.randomUUID();
      const legacy = await legacyConnection(userId);

      // Act
      const [ofWorkspace, ofUserInIt] = await Promise.all([
        repo.listAuthenticated({ workspaceId }),
        repo.listAuthenticated({ userId, workspaceId }),
      ]);

      // Assert
      expect(ofWorkspace.map((c) => c.id)).not.toContain(legacy);
      expect(ofUserInIt).toEqual([]);
    });

    it('is in the deployment’s listing, so the stale-connection sweep forgets it', async () => {
      // Arrange
      const repo = repository();
      const legacy = await legacyConnection(crypto.randomUUID());

      // Act
      const listed = await repo.listAuthenticated('all');

      // Assert
      expect(listed.find((c) => c.id === legacy)).toMatchObject({ workspaceId: null });
    });

    it('joins its user’s workspace when that user authenticates it again', async () => {
      // Arrange
      const repo = repository();
      const userId = crypto.randomUUID();
      const legacy = await legacyConnection(userId);

      // Act
      const outcome = await repo.authenticate(legacy, member(userId), 5);

      // Assert
      expect(outcome).toBe('authenticated');
      expect((await repo.listAuthenticated({ userId, workspaceId })).map((c) => c.id)).toEqual([legacy]);
    });

    it('is never handed to another user', async () => {
      // Arrange
      const repo = repository();
      const legacy = await legacyConnection(crypto.randomUUID());

      // Act
      const outcome = await repo.authenticate(legacy, member(crypto.randomUUID()), 5);

      // Assert
      expect(outcome).toBe('other_user');
    });
  });

  it('keeps the event types a connection subscribed to', async () => {
    // Arrange
    const repo = repository();
    const id = await opened(repo);
    const userId = crypto.randomUUID();
    await repo.authenticate(id, member(userId), 5);

    // Act
    const stored = await repo.subscribe(id, ['notification', 'queue_status']);

    // Assert
    expect(stored).toBe(true);
    expect((await repo.listAuthenticated({ userId, workspaceId }))[0]?.subscriptions).toEqual(['notification', 'queue_status']);
  });

  it('does not subscribe a connection it does not know', async () => {
    // Arrange
    const repo = repository();

    // Act
    const stored = await repo.subscribe(crypto.randomUUID(), ['notification']);

    // Assert
    expect(stored).toBe(false);
  });
});
