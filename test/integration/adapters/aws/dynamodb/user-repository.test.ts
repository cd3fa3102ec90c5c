import { beforeAll, describe, expect, it, beforeEach } from 'vitest';
import { DynamoUserRepository } from '../../../../../shared/adapters/aws/dynamodb/user-repository';
import { AppError } from '../../../../../shared/domain/errors';
import { BOOTSTRAP_WORKSPACE_ID } from '../../../../../shared/domain/workspaces/workspace';
import { freshTable } from '../../../../support/aws-resources';
import { aUser } from '../../../../support/builders';
import { PutCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoWorkspaceRepository } from '../../../../../shared/adapters/aws/dynamodb/workspace-repository';
import { keys } from '../../../../../shared/adapters/aws/dynamodb/keys';
import { DynamoSettingsRepository } from '../../../../../shared/adapters/aws/dynamodb/settings-repository';
import type { User } from '../../../../../shared/domain/users/user';

describe('DynamoUserRepository', () => {
  let users: DynamoUserRepository;

  beforeAll(async () => {
    const { db, tableName } = await freshTable();
    users = new DynamoUserRepository(db, tableName);
  });

  it('stores a user and finds it by id and by username in any case', async () => {
    const user = aUser({ username: 'MixedCase_1' });

    await users.create(user);

    expect(await users.findById(user.id)).toEqual(user);
    expect(await users.findByUsername('mixedcase_1')).toEqual(user);
  });

  it('finds nothing for an unknown id or username', async () => {
    expect(await users.findById(crypto.randomUUID())).toBeNull();
    expect(await users.findByUsername('nobody-at-all')).toBeNull();
  });

  it('refuses a username that differs only in case, naming the username', async () => {
    const first = aUser({ username: 'taken_name' });
    await users.create(first);

    const attempt = users.create(aUser({ username: 'TAKEN_NAME' }));

    await expect(attempt).rejects.toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { field: 'username' } });
  });

  it('refuses an email that another user has, naming the email', async () => {
    const first = aUser();
    await users.create(first);

    const attempt = users.create(aUser({ email: first.email.toUpperCase() }));

    await expect(attempt).rejects.toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { field: 'email' } });
  });

  it('lets exactly one of many concurrent sign-ups with one username win', async () => {
    const contenders = Array.from({ length: 8 }, () => aUser({ username: 'race_winner' }));

    const outcomes = await Promise.allSettled(contenders.map((user) => users.create(user)));

    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const failures = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(failures.every((f) => f.reason instanceof AppError && f.reason.code === 'DUPLICATE_RESOURCE')).toBe(true);
  });

  it('leaves no username or email taken when a sign-up is refused', async () => {
    const existing = aUser();
    await users.create(existing);
    const refused = aUser({ email: existing.email });

    await expect(users.create(refused)).rejects.toBeInstanceOf(AppError);

    await expect(users.create(aUser({ username: refused.username }))).resolves.toBeUndefined();
  });

  it('changes the email, freeing the old one for others', async () => {
    const user = aUser();
    await users.create(user);

    const updated = await users.updateProfile(user.id, { email: `changed_${user.email}`, display_name: 'New Name' }, '2026-02-01T00:00:00.000Z');

    expect(updated).toMatchObject({ email: `changed_${user.email}`, display_name: 'New Name', updated_at: '2026-02-01T00:00:00.000Z' });
    await expect(users.create(aUser({ email: user.email }))).resolves.toBeUndefined();
  });

  it('refuses an email change to a taken email and keeps the old email', async () => {
    const owner = aUser();
    const other = aUser();
    await users.create(owner);
    await users.create(other);

    await expect(users.updateProfile(other.id, { email: owner.email }, new Date().toISOString())).rejects.toMatchObject({
      details: { field: 'email' },
    });

    expect((await users.findById(other.id))?.email).toBe(other.email);
  });

  it('answers null when updating a user that does not exist', async () => {
    expect(await users.updateProfile(crypto.randomUUID(), { display_name: 'x' }, new Date().toISOString())).toBeNull();
    expect(await users.updatePassword(crypto.randomUUID(), 'hash', new Date().toISOString())).toBeNull();
  });

  it('stores a new password hash and bumps the token version', async () => {
    const user = aUser();
    await users.create(user);

    const updated = await users.updatePassword(user.id, 'scrypt$new', '2026-03-01T00:00:00.000Z');

    expect(updated).toMatchObject({ password_hash: 'scrypt$new', token_version: 1 });
    expect((await users.findById(user.id))?.token_version).toBe(1);
  });

  it('replaces a password hash by a stronger one without bumping the token version or the update time', async () => {
    const user = aUser({ password_hash: 'scrypt$16384$8$1$b2xk$a2V5', token_version: 2 });
    await users.create(user);

    const replaced = await users.rehashPassword(user.id, user.password_hash, 'scrypt$131072$8$1$bmV3$a2V5');

    expect(replaced).toBe(true);
    expect(await users.findById(user.id)).toMatchObject({
      password_hash: 'scrypt$131072$8$1$bmV3$a2V5',
      token_version: 2,
      updated_at: user.updated_at,
    });
  });

  it('keeps a password changed since the hash was read, rather than rehash the old one over it', async () => {
    const user = aUser({ password_hash: 'scrypt$16384$8$1$b2xk$a2V5' });
    await users.create(user);
    await users.updatePassword(user.id, 'scrypt$131072$8$1$Y2hhbmdlZA$a2V5', '2026-03-01T00:00:00.000Z');

    const replaced = await users.rehashPassword(user.id, user.password_hash, 'scrypt$131072$8$1$cmVoYXNo$a2V5');

    expect(replaced).toBe(false);
    expect((await users.findById(user.id))?.password_hash).toBe('scrypt$131072$8$1$Y2hhbmdlZA$a2V5');
  });

  it('lists users oldest first', async () => {
    const { db, tableName } = await freshTable();
    const own = new DynamoUserRepository(db, tableName);
    const older = aUser({ created_at: '2026-01-01T00:00:00.000Z' });
    const newer = aUser({ created_at: '2026-01-02T00:00:00.000Z' });
    await own.create(newer);
    await own.create(older);

    const listed = await own.list(BOOTSTRAP_WORKSPACE_ID);

    expect(listed.map((u) => u.id)).toEqual([older.id, newer.id]);
  });
});

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

describe('DynamoUserRepository with SSO identities', () => {
  let users: DynamoUserRepository;
  const issuer = 'https://idp.example';

  beforeAll(async () => {
    const { db, tableName } = await freshTable();
    users = new DynamoUserRepository(db, tableName);
  });

  it('finds a user by the (issuer, subject) it was created with', async () => {
    const user = aUser();

    await users.create(user, { identity: { issuer, subject: 'sub-1' } });

    expect(await users.findByIdentity(issuer, 'sub-1')).toEqual(user);
    expect(await users.findByIdentity('https://other-idp.example', 'sub-1')).toBeNull();
  });

  it('refuses a second user for a linked identity, naming the identity, and leaves its name and email free', async () => {
    await users.create(aUser(), { identity: { issuer, subject: 'sub-2' } });
    const second = aUser();

    const attempt = users.create(second, { identity: { issuer, subject: 'sub-2' } });

    await expect(attempt).rejects.toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { field: 'identity' } });
    await expect(users.create(aUser({ username: second.username, email: second.email }))).resolves.toBeUndefined();
  });

  it('frees the identity of a deleted user, so that the next login of that person makes a new account', async () => {
    const user = aUser();
    await users.create(user, { identity: { issuer, subject: 'sub-deleted' } });

    await users.delete(user.workspace_id, user.id);

    expect(await users.findByIdentity(issuer, 'sub-deleted')).toBeNull();
    await expect(users.create(aUser(), { identity: { issuer, subject: 'sub-deleted' } })).resolves.toBeUndefined();
  });

  it('names the identity, not the email, when the same person is created twice at once', async () => {
    const person = aUser();
    const twin = aUser({ email: person.email });

    const outcomes = await Promise.allSettled([
      users.create(person, { identity: { issuer, subject: 'sub-3' } }),
      users.create(twin, { identity: { issuer, subject: 'sub-3' } }),
    ]);

    const failures = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(failures).toHaveLength(1);
    expect(failures[0]!.reason).toMatchObject({ details: { field: 'identity' } });
  });
});
