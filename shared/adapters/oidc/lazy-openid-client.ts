import type { OidcClient } from '../../domain/sso/ports';
import { onFirstUse } from '../first-use';
import type { OpenIdClientOidcOptions } from './openid-client-oidc';

/**
 * The OidcClient port on openid-client, loaded on first use (a dynamic import): a process that serves no
 * single sign-on request never evaluates openid-client. Only the composition roots of what serves the OIDC
 * routes (the auth function, the local runtime) import this module, so no other Lambda bundle carries
 * openid-client at all: esbuild puts a dynamically imported module in the bundle of whoever imports it.
 */
export function lazyOpenIdClient(options: OpenIdClientOidcOptions): OidcClient {
  const client = onFirstUse(async () => new (await import('./openid-client-oidc')).OpenIdClientOidc(options));
  return {
    startAuthorization: async () => (await client()).startAuthorization(),
    redeem: async (callback, login) => (await client()).redeem(callback, login),
  };
}
