import type { Clock } from '../clock';
import type { OidcClient, PendingLoginStore } from './ports';

/** How long a browser has to come back from the provider. */
export const PENDING_LOGIN_TTL_SECONDS = 600;

export interface StartOidcLoginDeps {
  clock: Clock;
  oidc: { client: OidcClient; pendingLogins: PendingLoginStore };
}

/**
 * Begins a single sign-on: remembers a fresh state, nonce and PKCE verifier for ten minutes and answers the
 * provider's authorization URL to redirect the browser to.
 */
export async function startOidcLogin(deps: StartOidcLoginDeps): Promise<{ redirectTo: string }> {
  const request = await deps.oidc.client.startAuthorization();
  const now = deps.clock.now();
  await deps.oidc.pendingLogins.save({
    state: request.state,
    nonce: request.nonce,
    code_verifier: request.codeVerifier,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + PENDING_LOGIN_TTL_SECONDS * 1000).toISOString(),
  });
  return { redirectTo: request.url };
}
