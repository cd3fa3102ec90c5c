import { beforeEach, describe, expect, it } from 'vitest';
import { createWorkspaceUser } from '../../../../shared/domain/users/create-workspace-user';
import { ensureAdmin } from '../../../../shared/domain/users/ensure-admin';
import { memberOf, refuseRemovingOperator } from '../../../../shared/domain/users/member-rules';
import { account, accountStores, signIn, workspaceMember, type AccountStores } from './account-stores';

/** The rules an admin's change of a member goes through, over the real user store. */
describe('member rules', () => {
  let stores: AccountStores;

  beforeEach(async () => {
    stores = await accountStores();
  });

  it("finds a member of the admin's workspace", async () => {
    // Arrange
    const member = await workspaceMember(stores, 'found');

    // Act
    const user = await memberOf(stores.users, member.workspaceId, member.userId);

    // Assert
    expect(user).toMatchObject({ id: member.userId, username: 'found' });
  });

  it("answers another workspace's user NOT_FOUND, like a missing id", async () => {
    // Arrange
    const member = await workspaceMember(stores, 'hidden');

    // Act
    const attempt = memberOf(stores.users, crypto.randomUUID(), member.userId);

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'User not found', details: { id: member.userId } });
  });

  it('names the last-admin rule when the operator is the only admin', async () => {
    // Arrange
    await ensureAdmin(stores, account('operator'));
    const operator = (await stores.users.findByUsername('operator'))!;

    // Act
    const refusal = refuseRemovingOperator(stores.users, operator);

    // Assert
    await expect(refusal).rejects.toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { reason: 'last_admin', workspace_id: operator.workspace_id } });
  });

  it('names the operator rule when another admin is there', async () => {
    // Arrange
    await ensureAdmin(stores, account('operator'));
    await createWorkspaceUser(stores, await signIn(stores, 'operator'), { ...account('second_admin'), role: 'admin' });
    const operator = (await stores.users.findByUsername('operator'))!;

    // Act
    const refusal = refuseRemovingOperator(stores.users, operator);

    // Assert
    await expect(refusal).rejects.toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { reason: 'operator', id: operator.id } });
  });
});
