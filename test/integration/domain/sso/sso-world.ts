import { DynamoOidcLoginStore } from '../../../../shared/adapters/aws/dynamodb/oidc-login-store';
import { OpenIdClientOidc } from '../../../../shared/adapters/oidc/openid-client-oidc';
import { completeOidcLogin, type CallbackInput } from '../../../../shared/domain/sso/complete-oidc-login';
import type { SsoUserPolicy } from '../../../../shared/domain/sso/ports';
import { startOidcLogin } from '../../../../shared/domain/sso/start-oidc-login';
import type { PlanCatalog } from '../../../../shared/domain/quotas/plans';
import { signInAtProvider, startOidcProvider, type TestOidcProvider } from '../../../support/oidc-provider';
import { freePort } from '../../../../shared/local/emulators/ports';
import { accountStores } from '../users/account-stores';

export const REDIRECT_URI = 'https://app.example/api/auth/oidc/callback';
const CLIENT = { client_id: 'docservice', client_secret: 'docservice-secret', redirect_uris: [REDIRECT_URI] };

/** A real OpenID Provider on loopback with the people these tests sign in (`login_hint` picks one by `sub`). */
export async function testProvider(): Promise<TestOidcProvider> {
  return startOidcProvider({
    port: await freePort(),
    clients: [CLIENT],
    accounts: [
      { sub: 'editor-1', email: 'eve@corp.example', email_verified: true, preferred_username: 'eve', name: 'Eve', groups: ['staff', 'doc-editors'] },
      { sub: 'plain-1', email: 'paul@corp.example', preferred_username: 'paul', groups: ['staff'] },
      { sub: 'sam-a', email: 'sam.a@corp.example', preferred_username: 'sam' },
      { sub: 'sam-b', email: 'sam.b@corp.example', preferred_username: 'sam' },
      { sub: 'twin', email: 'twin@corp.example', preferred_username: 'twin' },
      { sub: 'local', email: 'local@corp.example', preferred_username: 'local-sso' },
      { sub: 'no-email', preferred_username: 'nomail' },
      { sub: 'unverified', email: 'unverified@corp.example', email_verified: false },
    ],
  });
}

/**
 * The SSO use cases' deps over a fresh table (users, workspaces, pending logins, quota counts, a JWT service),
 * the relying party of the real openid-client adapter, and a workspace first logins join; `signIn` plays the
 * whole flow: start, the browser at the provider, the callback.
 */
export async function ssoWorld(provider: TestOidcProvider, options: { plans?: PlanCatalog; policy?: Partial<SsoUserPolicy> } = {}) {
  const stores = await accountStores(options);
  const workspaceId = crypto.randomUUID();
  await stores.workspaces.create({ id: workspaceId, name: 'Corp', created_at: stores.clock.now().toISOString() });
  const oidc = {
    client: new OpenIdClientOidc({
      issuer: provider.issuer,
      clientId: CLIENT.client_id,
      clientSecret: async () => CLIENT.client_secret,
      redirectUri: REDIRECT_URI,
      scopes: 'openid email profile groups',
    }),
    pendingLogins: new DynamoOidcLoginStore(stores.db, stores.tableName, stores.clock),
    policy: { workspaceId, defaultRole: 'viewer' as const, roleClaim: 'groups', roleMap: { 'doc-editors': 'editor' as const, 'doc-admins': 'admin' as const }, ...options.policy },
  };
  const deps = { ...stores, oidc, quotas: stores };
  /** The parameters the provider sends the browser back with, once `loginHint` signed in. */
  const callbackFor = async (loginHint: string): Promise<CallbackInput> => {
    const { redirectTo } = await startOidcLogin(deps);
    return Object.fromEntries((await signInAtProvider(redirectTo, REDIRECT_URI, loginHint)).searchParams);
  };
  const signIn = async (loginHint: string) => completeOidcLogin(deps, await callbackFor(loginHint));
  return { stores, workspaceId, deps, callbackFor, signIn };
}
