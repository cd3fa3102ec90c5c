import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoUserRepository } from '../../../../../shared/adapters/aws/dynamodb/user-repository';
import { AppError } from '../../../../../shared/domain/errors';
import { BOOTSTRAP_WORKSPACE_ID } from '../../../../../shared/domain/workspaces/workspace';
import { freshTable } from '../../../../support/aws-resources';
import { aUser } from '../../../../support/builders';

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
