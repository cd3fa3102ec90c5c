import { beforeEach, describe, expect, it } from 'vitest';
import { JoseTokenService } from '../../../../shared/adapters/jwt/jose-token-service';
import { authenticate } from '../../../../shared/domain/auth/authenticate';
import { login } from '../../../../shared/domain/auth/login';
import type { Session } from '../../../../shared/domain/auth/session';
import { registerUser } from '../../../../shared/domain/users/register';
import { accountStores, TTL_SECONDS, type AccountStores } from '../users/account-stores';

const alice = { username: 'alice', email: 'alice@example.com', password: 'alice-password' };

/** A bearer token turned into its caller, over the real token service, user store and revoked tokens. */
describe('authenticate', () => {
  let stores: AccountStores;
  let session: Session;

  beforeEach(async () => {
    stores = await accountStores();
    await registerUser(stores, alice);
    session = await login(stores, alice);
  });

  it('answers the caller with the role and workspace stored for the user now', async () => {
    // Arrange
    const user = (await stores.users.findById(session.user.id))!;
    await stores.users.updateMember(user.workspace_id, user.id, { display_name: 'Alice' }, stores.clock.now().toISOString());

    // Act
    const caller = await authenticate(stores, session.token);

    // Assert
    expect(caller).toMatchObject({ userId: user.id, username: 'alice', email: 'alice@example.com', role: 'admin', workspaceId: user.workspace_id, operator: false, tokenVersion: 0 });
    expect(caller.tokenExpiresAt.toISOString()).toBe(session.expires_at);
  });

  it('refuses a token once it has expired', async () => {
    // Arrange
    stores.clock.advanceSeconds(TTL_SECONDS + 1);

    // Act
    const attempt = authenticate(stores, session.token);

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('refuses a revoked token', async () => {
    // Arrange
    const caller = await authenticate(stores, session.token);
    await stores.revokedTokens.revoke(caller.jti, new Date(stores.clock.now().getTime() + 3_600_000));

    // Act
    const attempt = authenticate(stores, session.token);

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'UNAUTHORIZED', message: 'The token is no longer valid' });
  });

  it('refuses a token of an older token version (the password changed since)', async () => {
    // Arrange
    await stores.users.updatePassword(session.user.id, 'scrypt$1$1$1$c2FsdA$a2V5', stores.clock.now().toISOString());

    // Act
    const attempt = authenticate(stores, session.token);

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'UNAUTHORIZED', message: 'The token is no longer valid' });
  });

  it('refuses a token whose user no longer exists', async () => {
    // Arrange
    const user = (await stores.users.findById(session.user.id))!;
    // A second admin, so that the workspace keeps one.
    await stores.users.create({ ...user, id: crypto.randomUUID(), username: 'second', email: 'second@example.com' });
    await stores.users.delete(user.workspace_id, user.id);

    // Act
    const attempt = authenticate(stores, session.token);

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('refuses a token signed with another key', async () => {
    // Arrange
    const forger = new JoseTokenService({ key: async () => new TextEncoder().encode('f'.repeat(64)), issuer: 'docservice', audience: 'docservice-api', ttlSeconds: TTL_SECONDS, clock: stores.clock });
    const forged = await forger.issue({ userId: session.user.id, role: 'admin', tokenVersion: 0 });

    // Act
    const attempt = authenticate(stores, forged.token);

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
