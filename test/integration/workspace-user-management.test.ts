import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '../../shared/adapters/aws/dynamodb/keys';
import type { AppContainer } from '../../shared/container/app-container';
import { login } from '../../shared/domain/auth/login';
import type { Principal } from '../../shared/domain/principal';
import { createWorkspaceUser } from '../../shared/domain/users/create-workspace-user';
import { deleteWorkspaceUser } from '../../shared/domain/users/delete-workspace-user';
import { ensureAdmin } from '../../shared/domain/users/ensure-admin';
import { listUsers } from '../../shared/domain/users/list-users';
import { registerUser } from '../../shared/domain/users/register';
import { updateWorkspaceUser } from '../../shared/domain/users/update-workspace-user';
import { BOOTSTRAP_WORKSPACE_ID } from '../../shared/domain/workspaces/workspace';
import { testContainer } from '../support/test-container';
import { aUser, ManualClock } from '../support/builders';

const SECOND = '22222222-2222-4222-8222-222222222222';
const operatorAccount = { username: 'operator', email: 'operator@example.com', password: 'operator-password' };
const password = 'member-password';

/** User management by workspace admins, over the real repositories, token service and hasher. */
describe('workspace user management', () => {
  let c: AppContainer;
  let db: Awaited<ReturnType<typeof testContainer>>['db'];
  let tableName: string;
  let operator: Principal;
  let secondAdmin: Principal;

  const signIn = async (username: string) => c.authenticate((await login(c, { username, password: username === 'operator' ? operatorAccount.password : password })).token);
  const member = (username: string, role: 'admin' | 'editor' | 'viewer') => ({ username, email: `${username}@example.com`, password, role });

  beforeEach(async () => {
    ({ c, db, tableName } = await testContainer({ clock: new ManualClock(new Date()) }));
    await ensureAdmin(c, operatorAccount);
    operator = await signIn('operator');
    // A second workspace made directly, so that its admin's account is known to the test.
    await c.workspaces.create({ id: SECOND, name: 'second', created_at: new Date().toISOString() });
    await createWorkspaceUser(c, { ...operator, workspaceId: SECOND, operator: false }, member('second_admin', 'admin'));
    secondAdmin = await signIn('second_admin');
  });

  it('makes the bootstrap admin the operator and an admin of the first workspace', () => {
    expect(operator).toMatchObject({ role: 'admin', workspaceId: BOOTSTRAP_WORKSPACE_ID, operator: true });
    expect(secondAdmin).toMatchObject({ role: 'admin', workspaceId: SECOND, operator: false });
  });

  it('gives a registered user a new, empty workspace of their own, as its admin', async () => {
    const registered = await registerUser(c, { username: 'newcomer', email: 'newcomer@example.com', password });

    expect(registered).toMatchObject({ role: 'admin' });
    expect(registered.workspace_id).not.toBe(BOOTSTRAP_WORKSPACE_ID);
    expect(await c.workspaces.findById(registered.workspace_id)).toMatchObject({ id: registered.workspace_id });
    expect((await listUsers(c, registered.workspace_id, { page: 1, perPage: 100 })).data.map((u) => u.username)).toEqual(['newcomer']);
  });

  it('creates no workspace for a sign-up that is refused as a duplicate', async () => {
    await registerUser(c, { username: 'taken_name', email: 'taken@example.com', password });
    const before = (await c.workspaces.list()).length;

    const attempt = registerUser(c, { username: 'taken_name', email: 'other@example.com', password });

    await expect(attempt).rejects.toMatchObject({ code: 'DUPLICATE_RESOURCE' });
    expect(await c.workspaces.list()).toHaveLength(before);
  });

  it('creates a user in the admin’s own workspace with the role asked for', async () => {
    const created = await createWorkspaceUser(c, secondAdmin, member('second_editor', 'editor'));

    expect(created).toMatchObject({ workspace_id: SECOND, role: 'editor', display_name: null });
    expect(created).not.toHaveProperty('password_hash');
    expect((await signIn('second_editor')).role).toBe('editor');
  });

  it('lists the caller’s workspace only', async () => {
    await createWorkspaceUser(c, operator, member('first_viewer', 'viewer'));

    const first = await listUsers(c, operator.workspaceId, { page: 1, perPage: 100 });
    const second = await listUsers(c, secondAdmin.workspaceId, { page: 1, perPage: 100 });

    expect(first.data.map((u) => u.username).sort()).toEqual(['first_viewer', 'operator']);
    expect(second.data.map((u) => u.username)).toEqual(['second_admin']);
  });

  it('answers a user of another workspace exactly like an unknown id', async () => {
    const outsider = await registerUser(c, { username: 'outsider', email: 'outsider@example.com', password });

    const [change, removal, unknown] = await Promise.allSettled([
      updateWorkspaceUser(c, secondAdmin, outsider.id, { role: 'admin' }),
      deleteWorkspaceUser(c, secondAdmin, outsider.id),
      updateWorkspaceUser(c, secondAdmin, crypto.randomUUID(), { role: 'admin' }),
    ]);

    for (const outcome of [change, removal, unknown]) {
      expect(outcome).toMatchObject({ status: 'rejected', reason: { code: 'NOT_FOUND', message: 'User not found' } });
    }
    expect((await signIn('outsider')).role).toBe('admin');
  });

  it('applies a role change on the next authentication of a token issued before it', async () => {
    await createWorkspaceUser(c, secondAdmin, member('promoted', 'viewer'));
    const { token } = await login(c, { username: 'promoted', password });
    const before = await c.authenticate(token);

    await updateWorkspaceUser(c, secondAdmin, before.userId, { role: 'editor' });

    expect((await c.authenticate(token)).role).toBe('editor');
  });

  it('refuses every token of a deleted user', async () => {
    await createWorkspaceUser(c, secondAdmin, member('leaving', 'editor'));
    const { token } = await login(c, { username: 'leaving', password });
    const leaving = await c.authenticate(token);

    await deleteWorkspaceUser(c, secondAdmin, leaving.userId);

    await expect(c.authenticate(token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('refuses to demote the workspace’s last admin, themselves included', async () => {
    const attempt = updateWorkspaceUser(c, secondAdmin, secondAdmin.userId, { role: 'editor' });

    await expect(attempt).rejects.toMatchObject({ status: 409, code: 'DUPLICATE_RESOURCE', details: { reason: 'last_admin' } });
  });

  it('lets an admin delete themselves while another admin stays', async () => {
    await createWorkspaceUser(c, secondAdmin, member('other_admin', 'admin'));

    await deleteWorkspaceUser(c, secondAdmin, secondAdmin.userId);

    expect((await listUsers(c, SECOND, { page: 1, perPage: 10 })).data.map((u) => u.username)).toEqual(['other_admin']);
  });

  it('never demotes or deletes the operator, even with another admin in the workspace', async () => {
    await createWorkspaceUser(c, operator, member('co_admin', 'admin'));
    const coAdmin = await signIn('co_admin');

    const [demotion, removal] = await Promise.allSettled([
      updateWorkspaceUser(c, coAdmin, operator.userId, { role: 'viewer' }),
      deleteWorkspaceUser(c, coAdmin, operator.userId),
    ]);

    expect(demotion).toMatchObject({ status: 'rejected', reason: { code: 'DUPLICATE_RESOURCE', details: { reason: 'operator' } } });
    expect(removal).toMatchObject({ status: 'rejected', reason: { code: 'DUPLICATE_RESOURCE', details: { reason: 'operator' } } });
    expect((await signIn('operator')).role).toBe('admin');
  });

  it('adopts users written before workspaces on the next start, making the existing admin the operator', async () => {
    ({ c, db, tableName } = await testContainer());
    const legacyAdmin = aUser({ username: 'operator', role: 'admin' });
    const legacyViewer = aUser();
    for (const user of [legacyAdmin, legacyViewer]) {
      const { workspace_id: _none, ...legacy } = user;
      await db.send(new PutCommand({ TableName: tableName, Item: { ...keys.user(user.id), gsi1pk: 'USERS', gsi1sk: `${user.created_at}#${user.id}`, ...legacy } }));
      await db.send(new PutCommand({ TableName: tableName, Item: { ...keys.usernameLock(user.username), user_id: user.id } }));
    }

    const created = await ensureAdmin(c, operatorAccount);

    expect(created).toBe(false);
    expect(await c.workspaces.findById(BOOTSTRAP_WORKSPACE_ID)).toMatchObject({ id: BOOTSTRAP_WORKSPACE_ID });
    expect(await c.users.findById(legacyAdmin.id)).toMatchObject({ workspace_id: BOOTSTRAP_WORKSPACE_ID, operator: true });
    expect((await c.users.list(BOOTSTRAP_WORKSPACE_ID)).map((u) => u.id).sort()).toEqual([legacyAdmin.id, legacyViewer.id].sort());
    await expect(c.users.updateMember(BOOTSTRAP_WORKSPACE_ID, legacyAdmin.id, { role: 'editor' }, 'now')).rejects.toMatchObject({
      details: { reason: 'last_admin' },
    });
  });
});
