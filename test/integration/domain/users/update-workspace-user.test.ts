import { beforeEach, describe, expect, it } from 'vitest';
import { login } from '../../../../shared/domain/auth/login';
import { createWorkspaceUser } from '../../../../shared/domain/users/create-workspace-user';
import { ensureAdmin } from '../../../../shared/domain/users/ensure-admin';
import { updateWorkspaceUser } from '../../../../shared/domain/users/update-workspace-user';
import { account, accountStores, PASSWORD, signIn, workspaceMember, type AccountStores } from './account-stores';

/** A workspace admin changes a member, over the real user store and token service. */
describe('updateWorkspaceUser', () => {
  let stores: AccountStores;

  beforeEach(async () => {
    stores = await accountStores();
  });

  it('applies a role change on the next authentication of a token issued before it', async () => {
    // Arrange
    const admin = await workspaceMember(stores, 'boss');
    await createWorkspaceUser(stores, admin, { ...account('promoted'), role: 'viewer' });
    const { token } = await login(stores, { username: 'promoted', password: PASSWORD });
    const before = await stores.authenticate(token);

    // Act
    const updated = await updateWorkspaceUser(stores, admin, before.userId, { role: 'editor', display_name: 'Pro Moted' });

    // Assert
    expect(updated).toMatchObject({ role: 'editor', display_name: 'Pro Moted', updated_at: stores.clock.now().toISOString() });
    expect((await stores.authenticate(token)).role).toBe('editor');
  });

  it('answers a user of another workspace exactly like an unknown id, changing nothing', async () => {
    // Arrange
    const admin = await workspaceMember(stores, 'local_admin');
    const outsider = await workspaceMember(stores, 'outsider', 'viewer');

    // Act
    const [other, unknown] = await Promise.allSettled([
      updateWorkspaceUser(stores, admin, outsider.userId, { role: 'admin' }),
      updateWorkspaceUser(stores, admin, crypto.randomUUID(), { role: 'admin' }),
    ]);

    // Assert
    for (const outcome of [other, unknown]) {
      expect(outcome).toMatchObject({ status: 'rejected', reason: { code: 'NOT_FOUND', message: 'User not found' } });
    }
    expect((await signIn(stores, 'outsider')).role).toBe('viewer');
  });

  it("refuses to demote the workspace's last admin, themselves included", async () => {
    // Arrange
    const admin = await workspaceMember(stores, 'only_admin');

    // Act
    const attempt = updateWorkspaceUser(stores, admin, admin.userId, { role: 'editor' });

    // Assert
    await expect(attempt).rejects.toMatchObject({ status: 409, code: 'DUPLICATE_RESOURCE', details: { reason: 'last_admin', workspace_id: admin.workspaceId } });
  });

  it('never demotes the operator, even with another admin in the workspace', async () => {
    // Arrange
    await ensureAdmin(stores, account('operator'));
    const operator = await signIn(stores, 'operator');
    await createWorkspaceUser(stores, operator, { ...account('co_admin'), role: 'admin' });
    const coAdmin = await signIn(stores, 'co_admin');

    // Act
    const attempt = updateWorkspaceUser(stores, coAdmin, operator.userId, { role: 'viewer' });

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { reason: 'operator', id: operator.userId } });
    expect((await signIn(stores, 'operator')).role).toBe('admin');
  });

  it('refuses an email another user has, naming the field', async () => {
    // Arrange
    const admin = await workspaceMember(stores, 'mail_admin');
    const member = await createWorkspaceUser(stores, admin, { ...account('mail_member'), role: 'viewer' });

    // Act
    const attempt = updateWorkspaceUser(stores, admin, member.id, { email: 'mail_admin@example.com' });

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { field: 'email' } });
  });
});
