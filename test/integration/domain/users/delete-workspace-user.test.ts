import { beforeEach, describe, expect, it } from 'vitest';
import { login } from '../../../../shared/domain/auth/login';
import { sessionOf } from '../../../../shared/domain/connections/sessions';
import { UNLIMITED_PLAN } from '../../../../shared/domain/quotas/plans';
import { createWorkspaceUser } from '../../../../shared/domain/users/create-workspace-user';
import { deleteWorkspaceUser } from '../../../../shared/domain/users/delete-workspace-user';
import { ensureAdmin } from '../../../../shared/domain/users/ensure-admin';
import { listUsers } from '../../../../shared/domain/users/list-users';
import { account, accountStores, PASSWORD, signIn, workspaceMember, type AccountStores } from './account-stores';

/** A workspace admin removes a member, over the real user, connection and quota stores. */
describe('deleteWorkspaceUser', () => {
  let stores: AccountStores;

  beforeEach(async () => {
    stores = await accountStores();
  });

  it('refuses every token of a deleted user', async () => {
    // Arrange
    const admin = await workspaceMember(stores, 'remover');
    await createWorkspaceUser(stores, admin, { ...account('leaving'), role: 'editor' });
    const { token } = await login(stores, { username: 'leaving', password: PASSWORD });
    const leaving = await stores.authenticate(token);

    // Act
    await deleteWorkspaceUser(stores, admin, leaving.userId);

    // Assert
    await expect(stores.authenticate(token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it("ends the deleted user's WebSocket sessions, saying why", async () => {
    // Arrange
    const admin = await workspaceMember(stores, 'closer');
    await createWorkspaceUser(stores, admin, { ...account('connected'), role: 'viewer' });
    const connected = await signIn(stores, 'connected');
    const connectionId = crypto.randomUUID();
    await stores.connections.open(connectionId, stores.clock.now());
    await stores.connections.authenticate(connectionId, { userId: connected.userId, workspaceId: connected.workspaceId }, 5, sessionOf(connected));

    // Act
    await deleteWorkspaceUser(stores, admin, connected.userId);

    // Assert
    expect(await stores.connections.get(connectionId)).toMatchObject({ ended: 'user_deleted' });
  });

  it('frees the username and email for a new member', async () => {
    // Arrange
    const admin = await workspaceMember(stores, 'recycler');
    const gone = await createWorkspaceUser(stores, admin, { ...account('reused'), role: 'viewer' });
    await deleteWorkspaceUser(stores, admin, gone.id);

    // Act
    const again = await createWorkspaceUser(stores, admin, { ...account('reused'), role: 'editor' });

    // Assert
    expect(again).toMatchObject({ username: 'reused', email: 'reused@example.com', role: 'editor' });
    expect(again.id).not.toBe(gone.id);
  });

  it('lets an admin delete themselves while another admin stays', async () => {
    // Arrange
    const admin = await workspaceMember(stores, 'self_remover');
    await createWorkspaceUser(stores, admin, { ...account('other_admin'), role: 'admin' });

    // Act
    await deleteWorkspaceUser(stores, admin, admin.userId);

    // Assert
    expect((await listUsers(stores, admin.workspaceId, { page: 1, perPage: 10 })).data.map((u) => u.username)).toEqual(['other_admin']);
  });

  it("refuses to delete the workspace's last admin", async () => {
    // Arrange
    const admin = await workspaceMember(stores, 'last_one');

    // Act
    const attempt = deleteWorkspaceUser(stores, admin, admin.userId);

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { reason: 'last_admin' } });
  });

  it('never deletes the operator, even with another admin in the workspace', async () => {
    // Arrange
    await ensureAdmin(stores, account('operator'));
    const operator = await signIn(stores, 'operator');
    await createWorkspaceUser(stores, operator, { ...account('co_admin'), role: 'admin' });

    // Act
    const attempt = deleteWorkspaceUser(stores, await signIn(stores, 'co_admin'), operator.userId);

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { reason: 'operator' } });
    expect(await stores.users.findById(operator.userId)).not.toBeNull();
  });

  it("answers a user of another workspace like an unknown id, and leaves them be", async () => {
    // Arrange
    const admin = await workspaceMember(stores, 'reacher');
    const outsider = await workspaceMember(stores, 'untouchable', 'viewer');

    // Act
    const attempt = deleteWorkspaceUser(stores, admin, outsider.userId);

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'NOT_FOUND', details: { resource: 'User', id: outsider.userId } });
    expect(await stores.users.findById(outsider.userId)).not.toBeNull();
  });

  it("gives the member's place back to a workspace at its members limit", async () => {
    // Arrange
    stores = await accountStores({ plans: { plans: { pair: { ...UNLIMITED_PLAN, members: 2 } }, defaultPlan: 'pair' } });
    const admin = await workspaceMember(stores, 'full_admin');
    const leaving = await createWorkspaceUser(stores, admin, { ...account('leaving_member'), role: 'viewer' });

    // Act
    await deleteWorkspaceUser(stores, admin, leaving.id);

    // Assert
    await expect(createWorkspaceUser(stores, admin, { ...account('newcomer'), role: 'viewer' })).resolves.toMatchObject({ username: 'newcomer' });
  });
});
