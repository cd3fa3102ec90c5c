import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoConnectionRepository } from '../../../../shared/adapters/aws/dynamodb/connection-repository';
import { connectionState } from '../../../../shared/domain/connections/connection-state';
import type { ConnectionRepository } from '../../../../shared/domain/connections/ports';
import { freshTable } from '../../../support/aws-resources';
import { ManualClock } from '../../../support/builders';

const AUTH_TIMEOUT_SECONDS = 10;

describe('connectionState', () => {
  let clock: ManualClock;
  let connections: ConnectionRepository;
  const deps = () => ({ connections, clock });
  const opened = async () => {
    const id = crypto.randomUUID();
    await connections.open(id, clock.now());
    return id;
  };
  /** An open connection authenticated with a token that expires in `ttlSeconds`. */
  const authenticated = async (ttlSeconds = 3600) => {
    const id = await opened();
    const userId = crypto.randomUUID();
    const tokenId = crypto.randomUUID();
    const session = { tokenId, tokenVersion: 0, expiresAt: new Date(clock.now().getTime() + ttlSeconds * 1000).toISOString() };
    await connections.authenticate(id, { userId, workspaceId: crypto.randomUUID() }, 5, session);
    return { id, userId, tokenId };
  };

  beforeAll(async () => {
    const { db, tableName } = await freshTable();
    clock = new ManualClock(new Date());
    connections = new DynamoConnectionRepository(db, tableName, clock);
  });

  it('is pending for a connection not authenticated yet, within its time to authenticate', async () => {
    // Arrange
    const id = await opened();

    // Act
    const state = await connectionState(deps(), id, AUTH_TIMEOUT_SECONDS);

    // Assert
    expect(state).toEqual({ state: 'pending' });
  });

  it('is expired for a connection that let its time to authenticate pass', async () => {
    // Arrange
    const id = await opened();
    clock.advanceSeconds(AUTH_TIMEOUT_SECONDS + 1);

    // Act
    const state = await connectionState(deps(), id, AUTH_TIMEOUT_SECONDS);

    // Assert
    expect(state).toEqual({ state: 'expired' });
  });

  it('is expired for a connection no longer stored', async () => {
    // Arrange
    const id = crypto.randomUUID();

    // Act
    const state = await connectionState(deps(), id, AUTH_TIMEOUT_SECONDS);

    // Assert
    expect(state).toEqual({ state: 'expired' });
  });

  it('is authenticated, with the stored connection, while its token lasts', async () => {
    // Arrange
    const { id, userId } = await authenticated();
    clock.advanceSeconds(AUTH_TIMEOUT_SECONDS + 1);

    // Act
    const state = await connectionState(deps(), id, AUTH_TIMEOUT_SECONDS);

    // Assert
    expect(state).toMatchObject({ state: 'authenticated', connection: { id, userId } });
  });

  it('is ended with token_expired once the token it authenticated with expired', async () => {
    // Arrange
    const { id } = await authenticated(60);
    clock.advanceSeconds(61);

    // Act
    const state = await connectionState(deps(), id, AUTH_TIMEOUT_SECONDS);

    // Assert
    expect(state).toEqual({ state: 'ended', end: 'token_expired' });
  });

  it('is ended with the reason its session was ended for', async () => {
    // Arrange
    const { id, userId, tokenId } = await authenticated();
    await connections.endSessions({ userId, tokenId }, 'logout');

    // Act
    const state = await connectionState(deps(), id, AUTH_TIMEOUT_SECONDS);

    // Assert
    expect(state).toEqual({ state: 'ended', end: 'logout' });
  });
});
