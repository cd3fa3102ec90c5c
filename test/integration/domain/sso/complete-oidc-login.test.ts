import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNLIMITED_PLAN } from '../../../../shared/domain/quotas/plans';
import { completeOidcLogin } from '../../../../shared/domain/sso/complete-oidc-login';
import { PENDING_LOGIN_TTL_SECONDS } from '../../../../shared/domain/sso/start-oidc-login';
import { createUser } from '../../../../shared/domain/users/register';
import type { TestOidcProvider } from '../../../support/oidc-provider';
import { ssoWorld, testProvider } from './sso-world';

/**
 * The end of a single sign-on, against a real OpenID Provider on loopback through the openid-client adapter,
 * with users and pending logins on DynamoDB Local.
 */
describe('completeOidcLogin', () => {
  let provider: TestOidcProvider;

  beforeAll(async () => {
    provider = await testProvider();
  });

  afterAll(async () => {
    await provider?.stop();
  });

  it('makes a first login a user of the configured workspace, with the default role, and signs it in', async () => {
    // Arrange
    const { signIn, stores, workspaceId } = await ssoWorld(provider);

    // Act
    const session = await signIn('plain-1');

    // Assert
    expect(session.user).toMatchObject({ username: 'paul', email: 'paul@corp.example', role: 'viewer' });
    expect(await stores.authenticate(session.token)).toMatchObject({ userId: session.user.id, workspaceId, role: 'viewer' });
  });

  it('gives a first login the role its group claim maps to', async () => {
    // Arrange
    const { signIn, stores } = await ssoWorld(provider);

    // Act
    const session = await signIn('editor-1');

    // Assert
    expect(session.user.role).toBe('editor');
    expect(await stores.users.findByIdentity(provider.issuer, 'editor-1')).toMatchObject({ username: 'eve', display_name: 'Eve', role: 'editor' });
  });

  it('signs a returning person in as the user their first login made', async () => {
    // Arrange
    const { signIn } = await ssoWorld(provider);
    const first = await signIn('plain-1');

    // Act
    const again = await signIn('plain-1');

    // Assert
    expect(again.user.id).toBe(first.user.id);
  });

  it('gives a second person with a taken username the name with a suffix', async () => {
    // Arrange
    const { signIn } = await ssoWorld(provider);
    const first = await signIn('sam-a');

    // Act
    const second = await signIn('sam-b');

    // Assert
    expect([first.user.username, second.user.username]).toEqual(['sam', 'sam-2']);
  });

  it("creates one user when the same person's first two logins complete at once", async () => {
    // Arrange
    const { callbackFor, deps } = await ssoWorld(provider);
    const callbacks = await Promise.all([callbackFor('twin'), callbackFor('twin')]);

    // Act
    const sessions = await Promise.all(callbacks.map((callback) => completeOidcLogin(deps, callback)));

    // Assert
    expect(sessions[0]!.user.id).toBe(sessions[1]!.user.id);
  });

  it.each([
    ['shares no email', 'no-email', 'email'],
    ['marks the email unverified', 'unverified', 'email_verified'],
  ])('refuses a first login whose provider %s, naming the claim', async (_, account, claim) => {
    // Arrange
    const { signIn } = await ssoWorld(provider);

    // Act
    const attempt = signIn(account);

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'UNAUTHORIZED', details: { claim } });
  });

  it('never hands a local account with the same email to a first login', async () => {
    // Arrange
    const { signIn, stores, workspaceId } = await ssoWorld(provider);
    await createUser(stores, { username: 'local', email: 'local@corp.example', password: 'local-password' }, 'viewer', workspaceId);

    // Act
    const attempt = signIn('local');

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { resource: 'user', field: 'email' } });
    expect(await stores.users.findByIdentity(provider.issuer, 'local')).toBeNull();
  });

  it('refuses a callback played a second time', async () => {
    // Arrange
    const { callbackFor, deps } = await ssoWorld(provider);
    const callback = await callbackFor('plain-1');
    await completeOidcLogin(deps, callback);

    // Act
    const replay = completeOidcLogin(deps, callback);

    // Assert
    await expect(replay).rejects.toMatchObject({ code: 'UNAUTHORIZED', details: { field: 'state' } });
  });

  it('refuses a callback that comes back after the pending login expired', async () => {
    // Arrange
    const { callbackFor, deps, stores } = await ssoWorld(provider);
    const callback = await callbackFor('plain-1');
    stores.clock.advanceSeconds(PENDING_LOGIN_TTL_SECONDS + 1);

    // Act
    const late = completeOidcLogin(deps, callback);

    // Assert
    await expect(late).rejects.toMatchObject({ code: 'UNAUTHORIZED', details: { field: 'state' } });
  });

  it("answers the provider's error as UNAUTHORIZED and uses the state up", async () => {
    // Arrange
    const { callbackFor, deps } = await ssoWorld(provider);
    const callback = await callbackFor('plain-1');

    // Act
    const refused = completeOidcLogin(deps, { state: callback.state, error: 'access_denied', error_description: 'the user said no' });

    // Assert
    await expect(refused).rejects.toMatchObject({ code: 'UNAUTHORIZED', details: { provider_error: 'access_denied', provider_error_description: 'the user said no' } });
    await expect(completeOidcLogin(deps, callback)).rejects.toMatchObject({ details: { field: 'state' } });
  });

  it('refuses a callback without a code, naming the field', async () => {
    // Arrange
    const { callbackFor, deps } = await ssoWorld(provider);
    const { state } = await callbackFor('plain-1');

    // Act
    const attempt = completeOidcLogin(deps, { state });

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'code' } });
  });

  it("refuses a first login past the workspace's members limit, creating nobody", async () => {
    // Arrange
    const { signIn, stores } = await ssoWorld(provider, { plans: { plans: { one: { ...UNLIMITED_PLAN, members: 1 } }, defaultPlan: 'one' } });
    await signIn('plain-1');

    // Act
    const attempt = signIn('editor-1');

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'FORBIDDEN', details: { reason: 'quota_exceeded', quota: 'members' } });
    expect(await stores.users.findByIdentity(provider.issuer, 'editor-1')).toBeNull();
  });
});
