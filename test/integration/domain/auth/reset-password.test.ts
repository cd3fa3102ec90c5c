import { beforeEach, describe, expect, it } from 'vitest';
import { login } from '../../../../shared/domain/auth/login';
import { resetPassword } from '../../../../shared/domain/auth/reset-password';
import { sessionOf } from '../../../../shared/domain/connections/sessions';
import { registerUser } from '../../../../shared/domain/users/register';
import { accountStores, type AccountStores } from '../users/account-stores';

const alice = { username: 'alice', email: 'alice@example.com', password: 'alice-password' };

/** An operator's password reset, over the real user store, hasher and connections. */
describe('resetPassword', () => {
  let stores: AccountStores;

  beforeEach(async () => {
    stores = await accountStores();
    await registerUser(stores, alice);
  });

  it("lets a user in with the password an operator reset and ends the user's older tokens", async () => {
    // Arrange
    const before = await login(stores, alice);

    // Act
    await resetPassword(stores, 'alice', 'a-new-password');

    // Assert
    await expect(stores.authenticate(before.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(login(stores, alice)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await login(stores, { username: 'alice', password: 'a-new-password' })).token).toEqual(expect.any(String));
  });

  it("ends the WebSocket connections opened with the user's older tokens", async () => {
    // Arrange
    const caller = await stores.authenticate((await login(stores, alice)).token);
    const connectionId = crypto.randomUUID();
    await stores.connections.open(connectionId, stores.clock.now());
    await stores.connections.authenticate(connectionId, { userId: caller.userId, workspaceId: caller.workspaceId }, 5, sessionOf(caller));

    // Act
    await resetPassword(stores, 'alice', 'a-new-password');

    // Assert
    expect(await stores.connections.get(connectionId)).toMatchObject({ ended: 'password_changed' });
  });

  it('answers the user with the token version moved on, and issues no session', async () => {
    // Act
    const updated = await resetPassword(stores, 'alice', 'a-new-password');

    // Assert
    expect(updated).toMatchObject({ username: 'alice', token_version: 1 });
    expect(updated).not.toHaveProperty('token');
  });

  it('answers a reset for an unknown username NOT_FOUND', async () => {
    // Act
    const attempt = resetPassword(stores, 'nobody', 'a-new-password');

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'NOT_FOUND', details: { resource: 'User', id: 'nobody' } });
  });
});
