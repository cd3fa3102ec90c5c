import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/domain/errors';
import type { Principal } from '../../../shared/domain/principal';
import { createApiToken } from '../../../shared/domain/tokens/create-token';
import { MAX_TOKENS_PER_USER } from '../../../shared/domain/tokens/ports';
import { hashToken, isWellFormedToken } from '../../../shared/domain/tokens/token-format';
import { ManualClock } from '../../support/builders';
import { quotaDeps } from '../../support/memory-quota-counts';
import { MemoryApiTokens } from './fake-api-tokens';

const caller: Principal = {
  userId: 'u-1',
  username: 'ed',
  email: 'ed@example.com',
  role: 'editor',
  workspaceId: 'w-1',
  jti: 'j-1',
  tokenExpiresAt: new Date('2026-01-01T01:00:00Z'),
};

const setup = () => {
  const apiTokens = new MemoryApiTokens();
  const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
  return { apiTokens, clock, deps: { apiTokens, clock, apiTokenMaxDays: 365, ...quotaDeps() } };
};

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
};

describe('createApiToken', () => {
  it('answers the secret once and stores only its hash, with the prefix, scopes and times', async () => {
    const { apiTokens, deps } = setup();
    const created = await createApiToken(deps, caller, { name: 'scanner', scopes: ['write', 'read'] });
    expect(isWellFormedToken(created.token)).toBe(true);
    expect(created).toMatchObject({
      user_id: 'u-1',
      name: 'scanner',
      prefix: created.token.slice(0, 8),
      scopes: ['read', 'write'],
      created_at: '2026-01-01T00:00:00.000Z',
      last_used_at: null,
      expires_at: '2027-01-01T00:00:00.000Z',
    });
    expect(created).not.toHaveProperty('hash');
    const stored = await apiTokens.findByHash(hashToken(created.token));
    expect(stored).toMatchObject({ id: created.id, workspace_id: 'w-1' });
    expect(JSON.stringify(stored)).not.toContain(created.token);
  });

  it('takes an expiry in the future up to API_TOKEN_MAX_DAYS away', async () => {
    const { deps } = setup();
    const created = await createApiToken(deps, caller, { name: 'ci', scopes: ['read'], expires_at: '2026-01-31T00:00:00Z' });
    expect(created.expires_at).toBe('2026-01-31T00:00:00.000Z');
    const past = await refusal(createApiToken(deps, caller, { name: 'ci', scopes: ['read'], expires_at: '2025-12-31T00:00:00Z' }));
    expect(past.details).toMatchObject({ field: 'expires_at', reason: 'must be in the future' });
    const far = await refusal(createApiToken({ ...deps, apiTokenMaxDays: 30 }, caller, { name: 'ci', scopes: ['read'], expires_at: '2026-02-01T00:00:01Z' }));
    expect(far.code).toBe('VALIDATION_ERROR');
    expect(far.details).toMatchObject({ field: 'expires_at', reason: 'must be at most 30 days away' });
  });

  it(`refuses the ${MAX_TOKENS_PER_USER + 1}th token of a user with 409 token_limit`, async () => {
    const { deps } = setup();
    for (let i = 0; i < MAX_TOKENS_PER_USER; i++) await createApiToken(deps, caller, { name: `t${i}`, scopes: ['read'] });
    const error = await refusal(createApiToken(deps, caller, { name: 'one more', scopes: ['read'] }));
    expect(error.code).toBe('DUPLICATE_RESOURCE');
    expect(error.details).toEqual({ reason: 'token_limit', limit: MAX_TOKENS_PER_USER });
    await expect(createApiToken(deps, { ...caller, userId: 'u-2' }, { name: 'other user', scopes: ['read'] })).resolves.toBeDefined();
  });
});
