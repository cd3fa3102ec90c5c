import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoConnectionRepository } from '../../../../../shared/adapters/aws/dynamodb/connection-repository';
import type { Clock } from '../../../../../shared/domain/clock';
import { movableClock } from '../../../../support/movable-clock';
import { freshTable } from '../../../../support/aws-resources';

/** One workspace for the tests that are not about workspaces. */
const workspaceId = crypto.randomUUID();
const member = (userId: string, workspace = workspaceId) => ({ userId, workspaceId: workspace });

describe('DynamoConnectionSessions, through the connection repository', () => {
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

  const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
  const session = (tokenId: string, tokenVersion = 0) => ({ tokenId, tokenVersion, expiresAt: inAnHour() });
  const authenticatedWith = async (repo: DynamoConnectionRepository, userId: string, tokenId: string, tokenVersion = 0) => {
    const id = await opened(repo);
    await repo.authenticate(id, member(userId), 5, session(tokenId, tokenVersion));
    return id;
  };

  it('keeps the token a connection authenticated with', async () => {
    // Arrange
    const repo = repository();
    const userId = crypto.randomUUID();
    const stored = session('token-1', 3);

    // Act
    const id = await opened(repo);
    await repo.authenticate(id, member(userId), 5, stored);

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
    const outcome = await repo.authenticate(id, member(userId), 5, session('second'));

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
    const outcome = await repo.authenticate(id, member(userId), 5, session('later'));

    // Assert
    expect(outcome).toBe('gone');
  });
});
