import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoConnectionRepository } from '../../shared/adapters/aws/dynamodb/connection-repository';
import { CachedConnectionRepository } from '../../shared/adapters/local/cached-connection-repository';
import { systemClock } from '../../shared/domain/clock';
import type { Connection, ConnectionRepository } from '../../shared/domain/events/ports';
import { freshTable } from '../support/aws-resources';

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

  it('lists what the table lists after connections open, authenticate, subscribe and close', async () => {
    // Arrange
    await cached.listAuthenticated('everyone');
    const [alice, bob] = [crypto.randomUUID(), crypto.randomUUID()];
    const [a1, a2, b1] = await Promise.all([opened(cached), opened(cached), opened(cached)]);
    await opened(cached); // never authenticates

    // Act
    await Promise.all([cached.authenticate(a1!, alice, 5), cached.authenticate(a2!, alice, 5), cached.authenticate(b1!, bob, 5)]);
    await Promise.all([cached.subscribe(a1!, ['notification']), cached.remove(a2!)]);

    // Assert
    expect(sorted(await cached.listAuthenticated('everyone'))).toEqual(sorted(await stored.listAuthenticated('everyone')));
    expect(sorted(await cached.listAuthenticated({ userId: alice }))).toEqual(sorted(await stored.listAuthenticated({ userId: alice })));
  });

  it('lists on its first read the connections already in the table', async () => {
    // Arrange
    const id = await opened(stored);
    await stored.authenticate(id, crypto.randomUUID(), 5);

    // Act
    const listed = await cached.listAuthenticated('everyone');

    // Assert
    expect(listed.map((c) => c.id)).toEqual([id]);
  });

  it('leaves the limit to the table: exactly the limit is admitted and listed when more authenticate at once', async () => {
    // Arrange
    await cached.listAuthenticated('everyone');
    const userId = crypto.randomUUID();
    const ids = await Promise.all(Array.from({ length: 9 }, () => opened(cached)));

    // Act
    const outcomes = await Promise.all(ids.map((id) => cached.authenticate(id, userId, 5)));

    // Assert
    expect(outcomes.filter((o) => o === 'authenticated')).toHaveLength(5);
    const admitted = ids.filter((_, i) => outcomes[i] === 'authenticated').sort();
    expect((await cached.listAuthenticated({ userId })).map((c) => c.id).sort()).toEqual(admitted);
    expect((await stored.listAuthenticated({ userId })).map((c) => c.id).sort()).toEqual(admitted);
  });

  it('stops listing a connection as soon as it is removed, as the publisher does for a gone client', async () => {
    // Arrange
    const id = await opened(cached);
    await cached.authenticate(id, crypto.randomUUID(), 5);
    await cached.listAuthenticated('everyone');

    // Act
    await cached.remove(id);

    // Assert
    expect(await cached.listAuthenticated('everyone')).toEqual([]);
    expect(await stored.get(id)).toBeNull();
  });
});
