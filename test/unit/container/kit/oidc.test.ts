import { describe, expect, it } from 'vitest';
import type { OpenIdClientOidcOptions } from '../../../../shared/adapters/oidc/openid-client-oidc';
import { commonEnvSchema, parseEnv } from '../../../../shared/container/kit/config';
import { oidcServices } from '../../../../shared/container/kit/oidc';
import type { Table } from '../../../../shared/container/kit/table';
import { systemClock } from '../../../../shared/domain/clock';
import type { OidcClient } from '../../../../shared/domain/sso/ports';

/* Single sign-on as the auth function and the local runtime build it. Nothing here does I/O: nothing talks to the provider or the table until a request comes. */

const SSO_ENV = { OIDC_ISSUER: 'https://login.example.com', OIDC_CLIENT_ID: 'docservice', OIDC_REDIRECT_URI: 'https://api.example.com/api/auth/oidc/callback' };
const table = { db: {} as Table['db'], name: 'docservice' };

const fakeClient: OidcClient = {
  startAuthorization: () => Promise.reject(new Error('not called')),
  redeem: () => Promise.reject(new Error('not called')),
};

describe('oidcServices', () => {
  it('leaves single sign-on off without OIDC_*', () => {
    // Arrange
    const env = parseEnv(commonEnvSchema, {});

    // Act
    const oidc = oidcServices({ table, env, clock: systemClock, client: () => fakeClient });

    // Assert
    expect(oidc).toBeNull();
  });

  it('makes the relying party with the given client from the OIDC_* settings', async () => {
    // Arrange
    const made: OpenIdClientOidcOptions[] = [];
    const env = parseEnv(commonEnvSchema, { ...SSO_ENV, OIDC_CLIENT_SECRET: 'shh', OIDC_SCOPES: 'email' });

    // Act
    const oidc = oidcServices({ table, env, clock: systemClock, client: (options) => (made.push(options), fakeClient) });

    // Assert
    expect(oidc?.client).toBe(fakeClient);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ issuer: SSO_ENV.OIDC_ISSUER, clientId: 'docservice', redirectUri: SSO_ENV.OIDC_REDIRECT_URI, scopes: 'openid email' });
    await expect(made[0]!.clientSecret()).resolves.toBe('shh');
  });
});
