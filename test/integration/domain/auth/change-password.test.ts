import { beforeEach, describe, expect, it } from 'vitest';
import { changePassword } from '../../../../shared/domain/auth/change-password';
import { login } from '../../../../shared/domain/auth/login';
import { sessionOf } from '../../../../shared/domain/connections/sessions';
import { registerUser } from '../../../../shared/domain/users/register';
import { accountStores, type AccountStores } from '../users/account-stores';

const alice = { username: 'alice', email: 'alice@example.com', password: 'alice-password' };

/** The caller's password change, over the real user store, hasher, token service and connections. */
describe('changePassword', () => {
  let stores: AccountStores;
  let userId: string;

  beforeEach(async () => {
    stores = await accountStores();
    userId = (await registerUser(stores, alice)).id;
  });

  it('ends every older token of the user and answers a fresh session', async () => {
    // Arrange
    const first = await login(stores, alice);
    const second = await login(stores, alice);

    // Act
    const fresh = await changePassword(stores, userId, { current_password: alice.password, new_password: 'new-password' });

    // Assert
    await expect(stores.authenticate(first.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(stores.authenticate(second.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await stores.authenticate(fresh.token)).userId).toBe(userId);
  });

  it('lets the new password in and no longer the old one', async () => {
    // Act
    await changePassword(stores, userId, { current_password: alice.password, new_password: 'new-password' });

    // Assert
    await expect(login(stores, { username: 'alice', password: 'new-password' })).resolves.toMatchObject({ user: { id: userId } });
    await expect(login(stores, alice)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('refuses a wrong current password, naming the field, and keeps the password', async () => {
    // Act
    const attempt = changePassword(stores, userId, { current_password: 'not-it', new_password: 'new-password' });

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'current_password' } });
    await expect(login(stores, alice)).resolves.toMatchObject({ user: { id: userId } });
  });

  it('refuses a new password equal to the current one', async () => {
    // Act
    const attempt = changePassword(stores, userId, { current_password: alice.password, new_password: alice.password });

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'new_password', reason: 'same as the current password' } });
  });

  it("ends the WebSocket connections opened with the user's older tokens", async () => {
    // Arrange
    const caller = await stores.authenticate((await login(stores, alice)).token);
    const connectionId = crypto.randomUUID();
    await stores.connections.open(connectionId, stores.clock.now());
    await stores.connections.authenticate(connectionId, { userId, workspaceId: caller.workspaceId }, 5, sessionOf(caller));

    // Act
    await changePassword(stores, userId, { current_password: alice.password, new_password: 'new-password' });

    // Assert
    expect(await stores.connections.get(connectionId)).toMatchObject({ ended: 'password_changed' });
  });
});
