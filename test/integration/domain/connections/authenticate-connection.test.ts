import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoConnectionRepository } from '../../../../shared/adapters/aws/dynamodb/connection-repository';
import { DynamoRevokedTokenStore } from '../../../../shared/adapters/aws/dynamodb/revoked-token-store';
import { DynamoUserRepository } from '../../../../shared/adapters/aws/dynamodb/user-repository';
import { JoseTokenService } from '../../../../shared/adapters/jwt/jose-token-service';
import { authenticate, type AuthenticateDeps } from '../../../../shared/domain/auth/authenticate';
import { authenticateConnection } from '../../../../shared/domain/connections/authenticate-connection';
import { MAX_CONNECTIONS_PER_USER, type ConnectionRepository } from '../../../../shared/domain/connections/ports';
import type { User } from '../../../../shared/domain/users/user';
import { freshTable } from '../../../support/aws-resources';
import { aUser, ManualClock } from '../../../support/builders';
import { TEST_JWT_KEY } from '../../../support/test-kit';

/**
 * Connections authenticated with real tokens: signed by the token service, checked against the stored users and
 * revocations as every request is.
 */
describe('authenticateConnection', () => {
  let clock: ManualClock;
  let connections: ConnectionRepository;
  let auth: AuthenticateDeps & { revokedTokens: DynamoRevokedTokenStore };

  const deps = (over: ConnectionRepository = connections) => ({ connections: over, authenticate: (token: string) => authenticate(auth, token) });
  const opened = async () => {
    const id = crypto.randomUUID();
    await connections.open(id, clock.now());
    return id;
  };
  const storedUser = async (): Promise<User> => {
    const user = aUser({ workspace_id: crypto.randomUUID() });
    await auth.users.create(user);
    return user;
  };
  const tokenOf = async (user: User) => auth.tokens.issue({ userId: user.id, role: user.role, tokenVersion: user.token_version });

  beforeAll(async () => {
    const { db, tableName } = await freshTable();
    clock = new ManualClock(new Date());
    connections = new DynamoConnectionRepository(db, tableName, clock);
    auth = {
      tokens: new JoseTokenService({ key: async () => TEST_JWT_KEY, issuer: 'docservice', audience: 'docservice', ttlSeconds: 3600, clock }),
      revokedTokens: new DynamoRevokedTokenStore(db, tableName),
      users: new DynamoUserRepository(db, tableName),
    };
  });

  it("binds the connection to the token's user and workspace, with the token's session", async () => {
    // Arrange
    const user = await storedUser();
    const { token, claims } = await tokenOf(user);
    const id = await opened();

    // Act
    const result = await authenticateConnection(deps(), id, token);

    // Assert
    expect(result).toMatchObject({ outcome: 'authenticated', principal: { userId: user.id, workspaceId: user.workspace_id } });
    expect(await connections.get(id)).toMatchObject({
      userId: user.id,
      workspaceId: user.workspace_id,
      session: { tokenId: claims.jti, tokenVersion: 0, expiresAt: claims.expiresAt.toISOString() },
    });
  });

  it('answers unauthorized, with the reason, for a token that does not verify, and leaves the connection unauthenticated', async () => {
    // Arrange
    const id = await opened();

    // Act
    const result = await authenticateConnection(deps(), id, 'not-a-jwt');

    // Assert
    expect(result).toMatchObject({ outcome: 'unauthorized', reason: expect.any(String) });
    expect((await connections.get(id))?.userId).toBeNull();
  });

  it('answers limit once the user holds the maximum of connections', async () => {
    // Arrange
    const user = await storedUser();
    const { token } = await tokenOf(user);
    for (let i = 0; i < MAX_CONNECTIONS_PER_USER; i++) await authenticateConnection(deps(), await opened(), token);

    // Act
    const result = await authenticateConnection(deps(), await opened(), token);

    // Assert
    expect(result).toEqual({ outcome: 'limit', limit: MAX_CONNECTIONS_PER_USER });
  });

  it("never hands a connection to another user's token", async () => {
    // Arrange
    const [owner, other] = [await storedUser(), await storedUser()];
    const id = await opened();
    await authenticateConnection(deps(), id, (await tokenOf(owner)).token);

    // Act
    const result = await authenticateConnection(deps(), id, (await tokenOf(other)).token);

    // Assert
    expect(result).toEqual({ outcome: 'other_user' });
    expect((await connections.get(id))?.userId).toBe(owner.id);
  });

  it("replaces the session with a fresh token of the same user, so the connection lives as long as it", async () => {
    // Arrange
    const user = await storedUser();
    const id = await opened();
    await authenticateConnection(deps(), id, (await tokenOf(user)).token);
    clock.advanceSeconds(600);
    const fresh = await tokenOf(user);

    // Act
    const result = await authenticateConnection(deps(), id, fresh.token);

    // Assert
    expect(result.outcome).toBe('authenticated');
    expect((await connections.get(id))?.session).toMatchObject({ tokenId: fresh.claims.jti, expiresAt: fresh.claims.expiresAt.toISOString() });
  });

  it('answers gone for a connection that closed meanwhile', async () => {
    // Arrange
    const user = await storedUser();
    const id = await opened();
    await connections.remove(id);

    // Act
    const result = await authenticateConnection(deps(), id, (await tokenOf(user)).token);

    // Assert
    expect(result).toEqual({ outcome: 'gone' });
  });

  it('removes a connection whose token was logged out while it was being stored, answering unauthorized', async () => {
    // Arrange: the logout's revocation lands between the first check and the connection's record.
    const user = await storedUser();
    const { token, claims } = await tokenOf(user);
    const id = await opened();
    const racedByLogout: ConnectionRepository = Object.assign(Object.create(connections) as ConnectionRepository, {
      authenticate: async (...args: Parameters<ConnectionRepository['authenticate']>) => {
        const outcome = await connections.authenticate(...args);
        await auth.revokedTokens.revoke(claims.jti, claims.expiresAt);
        return outcome;
      },
    });

    // Act
    const result = await authenticateConnection(deps(racedByLogout), id, token);

    // Assert
    expect(result).toMatchObject({ outcome: 'unauthorized' });
    expect(await connections.get(id)).toBeNull();
  });
});
