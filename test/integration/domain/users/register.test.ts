import { beforeEach, describe, expect, it } from 'vitest';
import { login } from '../../../../shared/domain/auth/login';
import { listUsers } from '../../../../shared/domain/users/list-users';
import { registerUser } from '../../../../shared/domain/users/register';
import { BOOTSTRAP_WORKSPACE_ID } from '../../../../shared/domain/workspaces/workspace';
import { account, accountStores, PASSWORD, type AccountStores } from './account-stores';

/** Self-service sign-up over the real user and workspace stores and hasher. */
describe('registerUser', () => {
  let stores: AccountStores;

  beforeEach(async () => {
    stores = await accountStores();
  });

  it('gives a registered user a new, empty workspace of their own, as its admin', async () => {
    // Act
    const registered = await registerUser(stores, account('newcomer'));

    // Assert
    expect(registered).toMatchObject({ username: 'newcomer', email: 'newcomer@example.com', role: 'admin', display_name: null });
    expect(registered.workspace_id).not.toBe(BOOTSTRAP_WORKSPACE_ID);
    expect(await stores.workspaces.findById(registered.workspace_id)).toMatchObject({ name: "newcomer's workspace" });
    expect((await listUsers(stores, registered.workspace_id, { page: 1, perPage: 100 })).data.map((u) => u.username)).toEqual(['newcomer']);
  });

  it('stores the password hashed and answers the user without secrets', async () => {
    // Act
    const registered = await registerUser(stores, account('careful'));

    // Assert
    expect(registered).not.toHaveProperty('password_hash');
    expect(registered).not.toHaveProperty('token_version');
    expect((await stores.users.findById(registered.id))!.password_hash).not.toContain(PASSWORD);
    expect((await login(stores, { username: 'careful', password: PASSWORD })).user.id).toBe(registered.id);
  });

  it('refuses a taken username, naming the field, and creates no workspace for it', async () => {
    // Arrange
    await registerUser(stores, account('taken_name'));
    const before = (await stores.workspaces.list()).length;

    // Act
    const attempt = registerUser(stores, { ...account('taken_name'), email: 'other@example.com' });

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { resource: 'user', field: 'username' } });
    expect(await stores.workspaces.list()).toHaveLength(before);
  });

  it('refuses a taken email, whatever its case, naming the field', async () => {
    // Arrange
    await registerUser(stores, account('first'));

    // Act
    const attempt = registerUser(stores, { ...account('second'), email: 'FIRST@example.com' });

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { field: 'email' } });
  });

  it('refuses registration while it is closed, storing nobody', async () => {
    // Arrange
    const closed = { ...stores, registrationMode: 'closed' as const };

    // Act
    const attempt = registerUser(closed, account('bob'));

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'FORBIDDEN', details: { registration: 'closed' } });
    expect(await stores.users.findByUsername('bob')).toBeNull();
  });
});
