import { PutCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoUserRepository } from '../../shared/adapters/aws/dynamodb/user-repository';
import { DynamoWorkspaceRepository } from '../../shared/adapters/aws/dynamodb/workspace-repository';
import { keys } from '../../shared/adapters/aws/dynamodb/keys';
import { DynamoSettingsRepository } from '../../shared/adapters/aws/dynamodb/settings-repository';
import type { User } from '../../shared/domain/users/user';
import { BOOTSTRAP_WORKSPACE_ID } from '../../shared/domain/workspaces/workspace';
import { freshTable } from '../support/aws-resources';
import { aUser } from '../support/builders';

const OTHER = '11111111-1111-4111-8111-111111111111';
const NOW = '2026-11-23T12:00:00.000Z';

/** Users of two workspaces side by side in one table, and users written before workspaces existed. */
describe('DynamoUserRepository with workspaces', () => {
  let db: Awaited<ReturnType<typeof freshTable>>['db'];
  let tableName: string;
  let users: DynamoUserRepository;

  beforeEach(async () => {
    ({ db, tableName } = await freshTable());
    users = new DynamoUserRepository(db, tableName);
    const workspaces = new DynamoWorkspaceRepository(db, tableName);
    await workspaces.create({ id: BOOTSTRAP_WORKSPACE_ID, name: 'first', created_at: NOW });
    await workspaces.create({ id: OTHER, name: 'second', created_at: NOW });
  });

  /** A user item as the version before workspaces wrote it: no workspace_id, in the one USERS listing. */
  const storeLegacyUser = async (user: User) => {
    const { workspace_id: _none, ...legacy } = user;
    await db.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...keys.user(user.id), gsi1pk: 'USERS', gsi1sk: `${user.created_at}#${user.id}`, ...legacy },
      }),
    );
    return user;
  };
  const storedItem = async (id: string) => (await db.send(new GetCommand({ TableName: tableName, Key: keys.user(id) }))).Item;

  it('lists only the members of the workspace asked for', async () => {
    const mine = aUser({ workspace_id: OTHER });
    const theirs = aUser();
    await users.create(mine);
    await users.create(theirs);

    const listed = await users.list(OTHER);

    expect(listed.map((u) => u.id)).toEqual([mine.id]);
  });

  it('neither changes nor deletes a user of another workspace, answering as for an unknown id', async () => {
    const theirs = aUser({ role: 'editor' });
    await users.create(theirs);

    const changed = await users.updateMember(OTHER, theirs.id, { role: 'viewer' }, NOW);
    const deleted = await users.delete(OTHER, theirs.id);

    expect(changed).toBeNull();
    expect(deleted).toBeNull();
    expect(await users.findById(theirs.id)).toEqual(theirs);
  });

  it('keeps usernames unique across workspaces', async () => {
    await users.create(aUser({ username: 'same_name', workspace_id: OTHER }));

    const attempt = users.create(aUser({ username: 'SAME_NAME' }));

    await expect(attempt).rejects.toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { field: 'username' } });
  });

  it('reads a user stored without workspace_id as a member of the bootstrap workspace', async () => {
    const legacy = await storeLegacyUser(aUser({ role: 'editor' }));

    expect(await users.findById(legacy.id)).toEqual({ ...legacy, workspace_id: BOOTSTRAP_WORKSPACE_ID });
    expect((await users.list(BOOTSTRAP_WORKSPACE_ID)).map((u) => u.id)).toEqual([legacy.id]);
    expect(await users.list(OTHER)).toEqual([]);
  });

  it('adopts users stored without workspace_id into the bootstrap workspace, once', async () => {
    const legacy = await storeLegacyUser(aUser());

    const first = await users.adoptLegacyUsers();
    const again = await users.adoptLegacyUsers();

    expect([first, again]).toEqual([1, 0]);
    expect(await storedItem(legacy.id)).toMatchObject({
      workspace_id: BOOTSTRAP_WORKSPACE_ID,
      gsi1pk: `USERS#${BOOTSTRAP_WORKSPACE_ID}`,
    });
    expect((await users.list(BOOTSTRAP_WORKSPACE_ID)).map((u) => u.id)).toEqual([legacy.id]);
  });

  it('counts an adopted admin, so that the last one cannot be demoted', async () => {
    const legacyAdmin = await storeLegacyUser(aUser({ role: 'admin' }));
    await users.adoptLegacyUsers();

    const attempt = users.updateMember(BOOTSTRAP_WORKSPACE_ID, legacyAdmin.id, { role: 'editor' }, NOW);

    await expect(attempt).rejects.toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { reason: 'last_admin' } });
  });

  it('adopts a user stored without workspace_id before changing them, keeping the admin count right', async () => {
    const legacyAdmin = await storeLegacyUser(aUser({ role: 'admin' }));
    const second = aUser({ role: 'admin' });
    await users.create(second);

    const demoted = await users.updateMember(BOOTSTRAP_WORKSPACE_ID, legacyAdmin.id, { role: 'viewer' }, NOW);
    const lastOne = users.delete(BOOTSTRAP_WORKSPACE_ID, second.id);

    expect(demoted).toMatchObject({ role: 'viewer', workspace_id: BOOTSTRAP_WORKSPACE_ID });
    await expect(lastOne).rejects.toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { reason: 'last_admin' } });
  });

  it('refuses to delete the last admin of a workspace', async () => {
    const admin = aUser({ role: 'admin', workspace_id: OTHER });
    await users.create(admin);

    const attempt = users.delete(OTHER, admin.id);

    await expect(attempt).rejects.toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { reason: 'last_admin', workspace_id: OTHER } });
    expect(await users.findById(admin.id)).toEqual(admin);
  });

  it('demotes an admin while another admin stays', async () => {
    const [first, second] = [aUser({ role: 'admin', workspace_id: OTHER }), aUser({ role: 'admin', workspace_id: OTHER })];
    await users.create(first);
    await users.create(second);

    const demoted = await users.updateMember(OTHER, first.id, { role: 'editor' }, NOW);

    expect(demoted).toMatchObject({ role: 'editor', updated_at: NOW });
    expect((await users.findById(first.id))?.role).toBe('editor');
  });

  it('lets only one of two admins demoting each other at once succeed', async () => {
    const [first, second] = [aUser({ role: 'admin', workspace_id: OTHER }), aUser({ role: 'admin', workspace_id: OTHER })];
    await users.create(first);
    await users.create(second);

    const outcomes = await Promise.allSettled([
      users.updateMember(OTHER, first.id, { role: 'viewer' }, NOW),
      users.delete(OTHER, second.id),
    ]);

    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.find((o) => o.status === 'rejected')).toMatchObject({ reason: { code: 'DUPLICATE_RESOURCE' } });
    expect((await users.list(OTHER)).filter((u) => u.role === 'admin')).toHaveLength(1);
  });

  it('changes a member’s email, refusing one another user has', async () => {
    const member = aUser({ workspace_id: OTHER });
    const other = aUser();
    await users.create(member);
    await users.create(other);

    const taken = await users.updateMember(OTHER, member.id, { email: other.email.toUpperCase() }, NOW).catch((error: unknown) => error);
    const changed = await users.updateMember(OTHER, member.id, { email: 'new-address@example.com', display_name: 'Neu' }, NOW);

    expect(taken).toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { field: 'email' } });
    expect(changed).toMatchObject({ email: 'new-address@example.com', display_name: 'Neu' });
    await expect(users.create(aUser({ email: member.email }))).resolves.toBeUndefined();
  });

  it('deletes a member with their settings, freeing their username and email', async () => {
    const member = aUser({ workspace_id: OTHER });
    await users.create(member);
    const settings = new DynamoSettingsRepository(db, tableName);
    await settings.update(member.id, { theme: 'dark' }, NOW);

    const deleted = await users.delete(OTHER, member.id);

    expect(deleted).toEqual(member);
    expect(await users.findById(member.id)).toBeNull();
    expect(await storedItem(member.id)).toBeUndefined();
    expect(await settings.get(member.id)).toEqual({});
    await expect(users.create(aUser({ username: member.username, email: member.email }))).resolves.toBeUndefined();
  });
});
