import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '../../../../shared/adapters/aws/dynamodb/keys';
import { login } from '../../../../shared/domain/auth/login';
import { ensureAdmin } from '../../../../shared/domain/users/ensure-admin';
import { BOOTSTRAP_WORKSPACE_ID } from '../../../../shared/domain/workspaces/workspace';
import { aUser } from '../../../support/builders';
import { account, accountStores, signIn, workspaceMember, type AccountStores } from './account-stores';

const operatorAccount = { username: 'operator', email: 'operator@example.com', password: 'operator-password' };

/** The start's creation of the configured admin, over the real user and workspace stores. */
describe('ensureAdmin', () => {
  let stores: AccountStores;

  beforeEach(async () => {
    stores = await accountStores();
  });

  it('makes the configured admin the operator and an admin of the first workspace', async () => {
    // Act
    const created = await ensureAdmin(stores, operatorAccount);

    // Assert
    expect(created).toBe(true);
    expect(await stores.workspaces.findById(BOOTSTRAP_WORKSPACE_ID)).toMatchObject({ id: BOOTSTRAP_WORKSPACE_ID });
    expect(await signIn(stores, 'operator', operatorAccount.password)).toMatchObject({ role: 'admin', workspaceId: BOOTSTRAP_WORKSPACE_ID, operator: true });
  });

  it('creates the configured admin once and never resets its password', async () => {
    // Arrange
    await ensureAdmin(stores, operatorAccount);

    // Act
    const again = await ensureAdmin(stores, { ...operatorAccount, password: 'other-password' });

    // Assert
    expect(again).toBe(false);
    expect((await login(stores, operatorAccount)).user.role).toBe('admin');
    await expect(login(stores, { username: 'operator', password: 'other-password' })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it("never makes another workspace's member of that name the operator", async () => {
    // Arrange
    const namesake = await workspaceMember(stores, 'operator');

    // Act
    const created = await ensureAdmin(stores, account('operator'));

    // Assert
    expect(created).toBe(false);
    expect(await stores.users.findById(namesake.userId)).not.toHaveProperty('operator', true);
  });

  it('adopts users written before workspaces, making the existing admin the operator', async () => {
    // Arrange
    const legacyAdmin = aUser({ username: 'operator', role: 'admin' });
    const legacyViewer = aUser();
    for (const user of [legacyAdmin, legacyViewer]) {
      const { workspace_id: _none, ...legacy } = user;
      await stores.db.send(new PutCommand({ TableName: stores.tableName, Item: { ...keys.user(user.id), gsi1pk: 'USERS', gsi1sk: `${user.created_at}#${user.id}`, ...legacy } }));
      await stores.db.send(new PutCommand({ TableName: stores.tableName, Item: { ...keys.usernameLock(user.username), user_id: user.id } }));
    }

    // Act
    const created = await ensureAdmin(stores, operatorAccount);

    // Assert
    expect(created).toBe(false);
    expect(await stores.users.findById(legacyAdmin.id)).toMatchObject({ workspace_id: BOOTSTRAP_WORKSPACE_ID, operator: true });
    expect((await stores.users.list(BOOTSTRAP_WORKSPACE_ID)).map((u) => u.id).sort()).toEqual([legacyAdmin.id, legacyViewer.id].sort());
    await expect(stores.users.updateMember(BOOTSTRAP_WORKSPACE_ID, legacyAdmin.id, { role: 'editor' }, 'now')).rejects.toMatchObject({
      details: { reason: 'last_admin' },
    });
  });

  it('creates one admin when two instances start at once', async () => {
    // Act
    const outcomes = await Promise.all([ensureAdmin(stores, operatorAccount), ensureAdmin(stores, operatorAccount)]);

    // Assert
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect((await stores.users.list(BOOTSTRAP_WORKSPACE_ID)).map((u) => u.username)).toEqual(['operator']);
  });
});
