import { describe, expect, it } from 'vitest';
import { UNLIMITED_PLAN } from '../../../../shared/domain/quotas/plans';
import { createApiToken } from '../../../../shared/domain/tokens/create-token';
import { MAX_TOKENS_PER_USER } from '../../../../shared/domain/tokens/ports';
import { hashToken, isWellFormedToken } from '../../../../shared/domain/tokens/token-format';
import { tokenWorld } from './token-stores';

/** Making a personal API token, over the real token and quota stores. */
describe('createApiToken', () => {
  it('answers the secret once, well formed, with its prefix, ordered scopes and times', async () => {
    // Arrange
    const { stores, alice } = await tokenWorld();
    const now = stores.clock.now();

    // Act
    const created = await createApiToken(stores, alice, { name: 'scanner', scopes: ['write', 'read'] });

    // Assert
    expect(isWellFormedToken(created.token)).toBe(true);
    expect(created).toMatchObject({
      user_id: alice.userId,
      name: 'scanner',
      prefix: created.token.slice(0, 8),
      scopes: ['read', 'write'],
      created_at: now.toISOString(),
      last_used_at: null,
      expires_at: new Date(now.getTime() + stores.apiTokenMaxDays * 86_400_000).toISOString(),
    });
    expect(created).not.toHaveProperty('hash');
  });

  it('stores the hash of the secret in the caller\'s workspace, never the secret', async () => {
    // Arrange
    const { stores, alice } = await tokenWorld();

    // Act
    const created = await createApiToken(stores, alice, { name: 'scanner', scopes: ['read'] });

    // Assert
    const stored = await stores.apiTokens.findByHash(hashToken(created.token));
    expect(stored).toMatchObject({ id: created.id, workspace_id: alice.workspaceId });
    expect(JSON.stringify(stored)).not.toContain(created.token);
  });

  it('takes an expiry in the future up to API_TOKEN_MAX_DAYS away', async () => {
    // Arrange
    const { stores, alice } = await tokenWorld();
    const inThirtyDays = new Date(stores.clock.now().getTime() + 30 * 86_400_000).toISOString();

    // Act
    const created = await createApiToken({ ...stores, apiTokenMaxDays: 30 }, alice, { name: 'ci', scopes: ['read'], expires_at: inThirtyDays });

    // Assert
    expect(created.expires_at).toBe(inThirtyDays);
  });

  it('refuses an expiry in the past, naming the field', async () => {
    // Arrange
    const { stores, alice } = await tokenWorld();
    const past = new Date(stores.clock.now().getTime() - 1000).toISOString();

    // Act
    const attempt = createApiToken(stores, alice, { name: 'ci', scopes: ['read'], expires_at: past });

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'expires_at', reason: 'must be in the future' } });
  });

  it('refuses an expiry further away than API_TOKEN_MAX_DAYS, saying how far it may be', async () => {
    // Arrange
    const { stores, alice } = await tokenWorld();
    const tooFar = new Date(stores.clock.now().getTime() + 30 * 86_400_000 + 1000).toISOString();

    // Act
    const attempt = createApiToken({ ...stores, apiTokenMaxDays: 30 }, alice, { name: 'ci', scopes: ['read'], expires_at: tooFar });

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'expires_at', reason: 'must be at most 30 days away' } });
  });

  it(`refuses the ${MAX_TOKENS_PER_USER + 1}th token of a user with 409 token_limit, and not another user's`, async () => {
    // Arrange
    const { stores, alice, bob } = await tokenWorld();
    for (let i = 0; i < MAX_TOKENS_PER_USER; i++) await createApiToken(stores, alice, { name: `t${i}`, scopes: ['read'] });

    // Act
    const attempt = createApiToken(stores, alice, { name: 'one more', scopes: ['read'] });

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { reason: 'token_limit', limit: MAX_TOKENS_PER_USER } });
    await expect(createApiToken(stores, bob, { name: 'other user', scopes: ['read'] })).resolves.toBeDefined();
  });

  it("refuses a token past the plan's api_tokens limit with quota_exceeded", async () => {
    // Arrange
    const { stores, alice, bob } = await tokenWorld({ plans: { plans: { one: { ...UNLIMITED_PLAN, api_tokens: 1 } }, defaultPlan: 'one' } });
    await createApiToken(stores, alice, { name: 'first', scopes: ['read'] });

    // Act
    const attempt = createApiToken(stores, bob, { name: 'second', scopes: ['read'] });

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'FORBIDDEN', details: { reason: 'quota_exceeded', quota: 'api_tokens', limit: 1, used: 1 } });
  });
});
