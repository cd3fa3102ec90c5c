import { beforeEach, describe, expect, it } from 'vitest';
import { createWorkspaceUser } from '../../../../shared/domain/users/create-workspace-user';
import { listUsers } from '../../../../shared/domain/users/list-users';
import { account, accountStores, workspaceMember, type AccountStores } from './account-stores';

/** The members of a workspace, a page at a time, over the real user store. */
describe('listUsers', () => {
  let stores: AccountStores;

  beforeEach(async () => {
    stores = await accountStores();
  });

  it("lists the caller's workspace only", async () => {
    // Arrange
    const first = await workspaceMember(stores, 'first_admin');
    const second = await workspaceMember(stores, 'second_admin');
    await createWorkspaceUser(stores, first, { ...account('first_viewer'), role: 'viewer' });

    // Act
    const listed = await listUsers(stores, first.workspaceId, { page: 1, perPage: 100 });

    // Assert
    expect(listed.data.map((u) => u.username).sort()).toEqual(['first_admin', 'first_viewer']);
    expect((await listUsers(stores, second.workspaceId, { page: 1, perPage: 100 })).data.map((u) => u.username)).toEqual(['second_admin']);
  });

  it('answers the asked page, oldest first, with where it sits in the whole', async () => {
    // Arrange
    const admin = await workspaceMember(stores, 'pager');
    for (const name of ['m1', 'm2', 'm3', 'm4']) {
      stores.clock.advanceSeconds(1);
      await createWorkspaceUser(stores, admin, { ...account(name), role: 'viewer' });
    }

    // Act
    const page = await listUsers(stores, admin.workspaceId, { page: 2, perPage: 2 });

    // Assert
    expect(page.data.map((u) => u.username)).toEqual(['m2', 'm3']);
    expect(page.pagination).toEqual({ page: 2, per_page: 2, total: 5, total_pages: 3, has_next: true, has_prev: true });
  });

  it('never answers password hashes, token versions or the operator mark', async () => {
    // Arrange
    const admin = await workspaceMember(stores, 'secretive');

    // Act
    const { data } = await listUsers(stores, admin.workspaceId, { page: 1, perPage: 10 });

    // Assert
    expect(Object.keys(data[0]!).sort()).toEqual(['created_at', 'display_name', 'email', 'id', 'role', 'updated_at', 'username', 'workspace_id']);
  });
});
