import { beforeEach, describe, expect, it } from 'vitest';
import { login } from '../../../../shared/domain/auth/login';
import { refreshSession } from '../../../../shared/domain/auth/refresh';
import { sessionOf } from '../../../../shared/domain/connections/sessions';
import { registerUser } from '../../../../shared/domain/users/register';
import { accountStores, GRACE_SECONDS, TTL_SECONDS, type AccountStores } from '../users/account-stores';

const alice = { username: 'alice', email: 'alice@example.com', password: 'alice-password' };

/** A token traded for a fresh one, over the real token service, revoked tokens and connections. */
describe('refreshSession', () => {
  let stores: AccountStores;

  beforeEach(async () => {
    stores = await accountStores();
    await registerUser(stores, alice);
  });

  it('refreshes a token that expired within the grace window', async () => {
    // Arrange
    const session = await login(stores, alice);
    stores.clock.advanceSeconds(TTL_SECONDS + GRACE_SECONDS - 60);

    // Act
    const fresh = await refreshSession(stores, session.token);

    // Assert
    expect((await stores.authenticate(fresh.token)).username).toBe('alice');
    expect(fresh.user).toEqual(session.user);
  });

  it('refuses to refresh a token that expired beyond the grace window', async () => {
    // Arrange
    const session = await login(stores, alice);
    stores.clock.advanceSeconds(TTL_SECONDS + GRACE_SECONDS + 60);

    // Act
    const attempt = refreshSession(stores, session.token);

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('refuses the old token once it was refreshed', async () => {
    // Arrange
    const session = await login(stores, alice);
    await refreshSession(stores, session.token);

    // Act
    const [use, again] = await Promise.allSettled([stores.authenticate(session.token), refreshSession(stores, session.token)]);

    // Assert
    expect(use).toMatchObject({ status: 'rejected', reason: { code: 'UNAUTHORIZED' } });
    expect(again).toMatchObject({ status: 'rejected', reason: { code: 'UNAUTHORIZED' } });
  });

  it('lets only one of two concurrent refreshes of a token succeed', async () => {
    // Arrange
    const session = await login(stores, alice);

    // Act
    const outcomes = await Promise.allSettled([refreshSession(stores, session.token), refreshSession(stores, session.token)]);

    // Assert
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
  });

  it('moves the WebSocket connections of the old token to the new one', async () => {
    // Arrange
    const session = await login(stores, alice);
    const caller = await stores.authenticate(session.token);
    const connectionId = crypto.randomUUID();
    await stores.connections.open(connectionId, stores.clock.now());
    await stores.connections.authenticate(connectionId, { userId: caller.userId, workspaceId: caller.workspaceId }, 5, sessionOf(caller));

    // Act
    const fresh = await refreshSession(stores, session.token);

    // Assert
    const renewed = await stores.authenticate(fresh.token);
    expect((await stores.connections.get(connectionId))?.session).toEqual({ tokenId: renewed.jti, tokenVersion: 0, expiresAt: fresh.expires_at });
  });
});
