import { DynamoOidcLoginStore } from '../../adapters/aws/dynamodb/oidc-login-store';
import type { OpenIdClientOidcOptions } from '../../adapters/oidc/openid-client-oidc';
import type { Clock } from '../../domain/clock';
import type { OidcClient } from '../../domain/sso/ports';
import type { PendingLoginStore, SsoUserPolicy } from '../../domain/sso/ports';
import { oidcSettings, type CommonEnv } from './config';
import type { Table } from './table';

/** The OIDC relying party, its pending logins, how first logins become users, and where the token goes. */
export interface OidcServices {
  client: OidcClient;
  pendingLogins: PendingLoginStore;
  policy: SsoUserPolicy;
  /** The callback redirects here with the token in the fragment; null: it answers JSON. */
  frontendUrl: string | null;
}

/**
 * Single sign-on as configured (OIDC_*), or null when it is not (the OIDC routes answer 404). Reads the
 * configuration at init (a partial one fails here); nothing talks to the provider yet. `clientSecret`: where the
 * secret comes from when not from the environment (Secrets Manager in the cloud, read on first discovery).
 */
export function oidcServices(options: {
  table: Table;
  env: CommonEnv;
  clock: Clock;
  client: (options: OpenIdClientOidcOptions) => OidcClient;
  clientSecret?: (() => Promise<string | undefined>) | undefined;
}): OidcServices | null {
  const settings = oidcSettings(options.env);
  if (!settings) return null;
  return {
    client: options.client({
      issuer: settings.issuer,
      clientId: settings.clientId,
      clientSecret: options.clientSecret ?? (async () => settings.clientSecret),
      redirectUri: settings.redirectUri,
      scopes: settings.scopes,
    }),
    pendingLogins: new DynamoOidcLoginStore(options.table.db, options.table.name, options.clock),
    policy: { workspaceId: settings.workspaceId, defaultRole: settings.defaultRole, roleClaim: settings.roleClaim, roleMap: settings.roleMap },
    frontendUrl: settings.frontendUrl,
  };
}
