import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoConnectionRepository } from '../../../../shared/adapters/aws/dynamodb/connection-repository';
import { CachedConnectionRepository } from '../../../../shared/adapters/local/cached-connection-repository';
import { systemClock } from '../../../../shared/domain/clock';
import type { Connection, ConnectionRepository } from '../../../../shared/domain/connections/ports';
import { freshTable } from '../../../support/aws-resources';

const workspaceId = crypto.randomUUID();
const member = (userId: string, workspace = workspaceId) => ({ userId, workspaceId: workspace });

/** The local runtime's connection view over DynamoDB Local, checked against what the table itself answers. */
describe('CachedConnectionRepository over DynamoDB', () => {
  let stored: DynamoConnectionRepository;
  let cached: CachedConnectionRepository;

  const opened = async (repo: ConnectionRepository) => {
    const id = crypto.randomUUID();
    await repo.open(id, new Date());
    return id;
  };
  const sorted = (connections: Connection[]) => [...connections].sort((a, b) => a.id.localeCompare(b.id));

  beforeEach(async () => {
    const { db, tableName } = await freshTable();
    stored = new DynamoConnectionRepository(db, tableName, systemClock);
    cached = new CachedConnectionRepository(stored, systemClock);
  });

  it('lists what the table lists for every audience after connections open, authenticate, subscribe and close', async () => {
    // Arrange
    await cached.listAuthenticated('all');
    const theirs = crypto.randomUUID();
    const [alice, bob, carol] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    const [a1, a2, b1, c1] = await Promise.all([opened(cached), opened(cached), opened(cached), opened(cached)]);
    await opened(cached); // never authenticates

    // Act
    await Promise.all([
      cached.authenticate(a1!, member(alice), 5),
      cached.authenticate(a2!, member(alice), 5),
      cached.authenticate(b1!, member(bob), 5),
      cached.authenticate(c1!, member(carol, theirs), 5),
    ]);
    await Promise.all([cached.subscribe(a1!, ['notification']), cached.remove(a2!)]);

    // Assert
    const audiences = ['all', { workspaceId }, { workspaceId: theirs }, { userId: alice }, { userId: alice, workspaceId }, { userId: alice, workspaceId: theirs }] as const;
    for (const audience of audiences) {
      expect(sorted(await cached.listAuthenticated(audience))).toEqual(sorted(await stored.listAuthenticated(audience)));
    }
  });

  it("lists one workspace's connections and none of another's", async () => {
    // Arrange
    const [ours, theirs] = [crypto.randomUUID(), crypto.randomUUID()];
    const [mine, other] = await Promise.all([opened(cached), opened(cached)]);
    await cached.authenticate(mine!, member(crypto.randomUUID(), ours), 5);
    await cached.authenticate(other!, member(crypto.randomUUID(), theirs), 5);

    // Act
    const listed = await cached.listAuthenticated({ workspaceId: ours });

    // Assert
    expect(listed.map((c) => c.id)).toEqual([mine]);
  });

  it('lists on its first read the connections already in the table', async () => {
    // Arrange
    const id = await opened(stored);
    await stored.authenticate(id, member(crypto.randomUUID(), crypto.randomUUID()), 5);

    // Act
    const listed = await cached.listAuthenticated('all');

    // Assert
    expect(listed.map((c) => c.id)).toEqual([id]);
  });

  it('leaves the limit to the table: exactly the limit is admitted and listed when more authenticate at once', async () => {
    // Arrange
    await cached.listAuthenticated('all');
    const userId = crypto.randomUUID();
    const ids = await Promise.all(Array.from({ length: 9 }, () => opened(cached)));

    // Act
    const outcomes = await Promise.all(ids.map((id) => cached.authenticate(id, member(userId), 5)));

    // Assert
    expect(outcomes.filter((o) => o === 'authenticated')).toHaveLength(5);
    const admitted = ids.filter((_, i) => outcomes[i] === 'authenticated').sort();
    expect((await cached.listAuthenticated({ userId })).map((c) => c.id).sort()).toEqual(admitted);
    expect((await stored.listAuthenticated({ userId })).map((c) => c.id).sort()).toEqual(admitted);
  });

  it('stops listing a connection as soon as it is removed, as the publisher does for a gone client', async () => {
    // Arrange
    const id = await opened(cached);
    await cached.authenticate(id, member(crypto.randomUUID()), 5);
    await cached.listAuthenticated('all');

    // Act
    await cached.remove(id);

    // Assert
    expect(await cached.listAuthenticated('all')).toEqual([]);
    expect(await stored.get(id)).toBeNull();
  });
});
