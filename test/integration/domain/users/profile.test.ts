import { beforeEach, describe, expect, it } from 'vitest';
import { getProfile, updateProfile } from '../../../../shared/domain/users/profile';
import { accountStores, workspaceMember, type AccountStores } from './account-stores';

/** The caller's own record, read and changed over the real user store. */
describe('getProfile and updateProfile', () => {
  let stores: AccountStores;

  beforeEach(async () => {
    stores = await accountStores();
  });

  it("answers the caller's record without secrets", async () => {
    // Arrange
    const me = await workspaceMember(stores, 'myself', 'editor');

    // Act
    const profile = await getProfile(stores, me.userId);

    // Assert
    expect(profile).toMatchObject({ id: me.userId, username: 'myself', email: 'myself@example.com', role: 'editor', workspace_id: me.workspaceId });
    expect(profile).not.toHaveProperty('password_hash');
    expect(profile).not.toHaveProperty('token_version');
  });

  it('answers NOT_FOUND for a user that does not exist', async () => {
    // Arrange
    const id = crypto.randomUUID();

    // Act
    const attempt = getProfile(stores, id);

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'NOT_FOUND', details: { resource: 'User', id } });
  });

  it('changes the email and display name, stamped with the clock, and keeps the role', async () => {
    // Arrange
    const me = await workspaceMember(stores, 'changer', 'viewer');
    stores.clock.advanceSeconds(60);

    // Act
    const updated = await updateProfile(stores, me.userId, { email: 'new-address@example.com', display_name: 'Changed' });

    // Assert
    expect(updated).toMatchObject({ email: 'new-address@example.com', display_name: 'Changed', role: 'viewer', updated_at: stores.clock.now().toISOString() });
    expect(await getProfile(stores, me.userId)).toEqual(updated);
  });

  it('refuses an email another user has, naming the field', async () => {
    // Arrange
    await workspaceMember(stores, 'holder');
    const me = await workspaceMember(stores, 'wanter');

    // Act
    const attempt = updateProfile(stores, me.userId, { email: 'holder@example.com' });

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { field: 'email' } });
    expect((await getProfile(stores, me.userId)).email).toBe('wanter@example.com');
  });

  it('answers NOT_FOUND for a change of a user that does not exist', async () => {
    // Act
    const attempt = updateProfile(stores, crypto.randomUUID(), { display_name: 'Ghost' });

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
