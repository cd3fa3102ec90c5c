import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoConnectionRepository } from '../../../../shared/adapters/aws/dynamodb/connection-repository';
import { WS_CLOSE_CODES, type ConnectionRepository, type TokenSession } from '../../../../shared/domain/connections/ports';
import { connectionEnd, endConnection, endSessions, moveSessions, sessionEndedMessage, sessionOf } from '../../../../shared/domain/connections/sessions';
import type { Principal } from '../../../../shared/domain/principal';
import { freshTable } from '../../../support/aws-resources';
import { ManualClock } from '../../../support/builders';
import { liveGateway, type LiveGateway } from '../../../support/live-sockets';

describe('WebSocket sessions', () => {
  let clock: ManualClock;
  let connections: ConnectionRepository;
  let gateway: LiveGateway;

  const sessionFor = (tokenVersion = 0, ttlSeconds = 3600): TokenSession => ({
    tokenId: crypto.randomUUID(),
    tokenVersion,
    expiresAt: new Date(clock.now().getTime() + ttlSeconds * 1000).toISOString(),
  });
  /** A stored connection of `userId` authenticated with `session`. */
  const authenticated = async (userId: string, session: TokenSession) => {
    const id = crypto.randomUUID();
    await connections.open(id, clock.now());
    await connections.authenticate(id, { userId, workspaceId: crypto.randomUUID() }, 5, session);
    return id;
  };

  beforeAll(async () => {
    const { db, tableName } = await freshTable();
    clock = new ManualClock(new Date());
    connections = new DynamoConnectionRepository(db, tableName, clock);
    gateway = await liveGateway();
    return () => gateway.stop();
  });

  describe('endSessions', () => {
    it("marks the connections of a logged-out token ended, and leaves the user's other tokens' connections live", async () => {
      // Arrange
      const userId = crypto.randomUUID();
      const [loggedOut, kept] = [sessionFor(), sessionFor()];
      const [endedId, keptId] = [await authenticated(userId, loggedOut), await authenticated(userId, kept)];

      // Act
      await endSessions({ connections }, { userId, tokenId: loggedOut.tokenId }, 'logout');

      // Assert
      expect((await connections.get(endedId))?.ended).toBe('logout');
      expect((await connections.get(keptId))?.ended).toBeUndefined();
    });

    it('ends the connections of every older token version after a password change', async () => {
      // Arrange
      const userId = crypto.randomUUID();
      const [older, current] = [await authenticated(userId, sessionFor(0)), await authenticated(userId, sessionFor(1))];

      // Act
      await endSessions({ connections }, { userId, tokenVersionBelow: 1 }, 'password_changed');

      // Assert
      expect((await connections.get(older))?.ended).toBe('password_changed');
      expect((await connections.get(current))?.ended).toBeUndefined();
    });

    it("leaves another user's connections live", async () => {
      // Arrange
      const [userId, otherId] = [crypto.randomUUID(), crypto.randomUUID()];
      await authenticated(userId, sessionFor());
      const other = await authenticated(otherId, sessionFor());

      // Act
      await endSessions({ connections }, { userId }, 'user_deleted');

      // Assert
      expect((await connections.get(other))?.ended).toBeUndefined();
    });
  });

  describe('moveSessions', () => {
    it("moves a refreshed token's connections to the new token, so they outlive the old one", async () => {
      // Arrange
      const userId = crypto.randomUUID();
      const old = sessionFor(0, 60);
      const id = await authenticated(userId, old);
      const refreshed = sessionFor(0, 3600);

      // Act
      await moveSessions({ connections }, { userId, tokenId: old.tokenId }, refreshed);

      // Assert
      clock.advanceSeconds(61);
      const connection = await connections.get(id);
      expect(connection?.session).toEqual(refreshed);
      expect(connectionEnd(connection!, clock.now())).toBeNull();
    });
  });

  describe('connectionEnd', () => {
    it('is token_expired once the session expired, and null before', async () => {
      // Arrange
      const id = await authenticated(crypto.randomUUID(), sessionFor(0, 60));
      const connection = (await connections.get(id))!;

      // Act
      const before = connectionEnd(connection, clock.now());
      const after = connectionEnd(connection, new Date(clock.now().getTime() + 60_000));

      // Assert
      expect(before).toBeNull();
      expect(after).toBe('token_expired');
    });

    it('is the reason a session was ended for, before the token expires', async () => {
      // Arrange
      const userId = crypto.randomUUID();
      const session = sessionFor();
      const id = await authenticated(userId, session);
      await endSessions({ connections }, { userId }, 'workspace_suspended');

      // Act
      const end = connectionEnd((await connections.get(id))!, clock.now());

      // Assert
      expect(end).toBe('workspace_suspended');
    });
  });

  describe('endConnection through the local gateway', () => {
    it('sends the UNAUTHORIZED error naming the reason, then closes the connection', async () => {
      // Arrange
      const client = await gateway.connect();

      // Act
      await endConnection(gateway.sender, client.connectionId, 'logout');

      // Assert
      expect(await client.closed).toBe(WS_CLOSE_CODES.closedByService);
      expect(client.messages.map((message) => JSON.parse(message) as unknown)).toEqual([
        { type: 'error', data: { code: 'UNAUTHORIZED', message: expect.stringContaining('logged out'), details: { reason: 'logout' } } },
      ]);
    });

    it('leaves a connection already gone alone', async () => {
      // Arrange
      const client = await gateway.connect();
      client.socket.close();
      await client.closed;

      // Act
      const ended = endConnection(gateway.sender, client.connectionId, 'token_expired');

      // Assert
      await expect(ended).resolves.toBeUndefined();
    });
  });

  describe('sessionOf and sessionEndedMessage', () => {
    it("takes a principal's token id, version and expiry, version 0 when it has none", () => {
      // Arrange
      const principal = { userId: 'u', jti: 'jti-1', tokenExpiresAt: new Date('2026-12-01T00:00:00Z') } as Principal;

      // Act
      const session = sessionOf(principal);

      // Assert
      expect(session).toEqual({ tokenId: 'jti-1', tokenVersion: 0, expiresAt: '2026-12-01T00:00:00.000Z' });
    });

    it('says an expired token may be replaced by a fresh one', () => {
      // Arrange
      const end = 'token_expired' as const;

      // Act
      const message = JSON.parse(sessionEndedMessage(end)) as { data: { code: string; message: string; details: unknown } };

      // Assert
      expect(message.data).toEqual({ code: 'UNAUTHORIZED', message: expect.stringContaining('fresh token'), details: { reason: 'token_expired' } });
    });
  });
});
