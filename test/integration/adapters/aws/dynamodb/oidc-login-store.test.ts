import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoOidcLoginStore } from '../../../../../shared/adapters/aws/dynamodb/oidc-login-store';
import type { PendingLogin } from '../../../../../shared/domain/sso/ports';
import { freshTable } from '../../../../support/aws-resources';

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
