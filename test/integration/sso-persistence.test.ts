import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoOidcLoginStore } from '../../shared/adapters/aws/dynamodb/oidc-login-store';
import { DynamoUserRepository } from '../../shared/adapters/aws/dynamodb/user-repository';
import type { PendingLogin } from '../../shared/domain/sso/ports';
import { freshTable } from '../support/aws-resources';
import { aUser } from '../support/builders';

const aPendingLogin = (overrides: Partial<PendingLogin> = {}): PendingLogin => ({
  state: `state-${crypto.randomUUID()}`,
  nonce: 'nonce',
  code_verifier: 'verifier',
  created_at: new Date().toISOString(),
  expires_at: new Date(Date.now() + 600_000).toISOString(),
  ...overrides,
});

describe('DynamoOidcLoginStore', () => {
  let store: DynamoOidcLoginStore;

  beforeAll(async () => {
    const { db, tableName } = await freshTable();
    store = new DynamoOidcLoginStore(db, tableName, { now: () => new Date() });
  });

  it('gives a saved login back once, by its state', async () => {
    const login = aPendingLogin();
    await store.save(login);

    const first = await store.take(login.state);
    const second = await store.take(login.state);

    expect(first).toEqual(login);
    expect(second).toBeNull();
  });

  it('gives a login to exactly one of many concurrent callbacks', async () => {
    const login = aPendingLogin();
    await store.save(login);

    const taken = await Promise.all(Array.from({ length: 8 }, () => store.take(login.state)));

    expect(taken.filter((t) => t !== null)).toHaveLength(1);
  });

  it('finds nothing for an unknown state', async () => {
    expect(await store.take('never-issued')).toBeNull();
  });

  it('treats a login past its expiry as gone, before the table\'s TTL removes it', async () => {
    const login = aPendingLogin({ expires_at: new Date(Date.now() - 1000).toISOString() });
    await store.save(login);

    expect(await store.take(login.state)).toBeNull();
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
