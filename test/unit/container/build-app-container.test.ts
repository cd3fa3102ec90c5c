import { bareContainerParts } from '../../support/container-parts';
import { describe, expect, it } from 'vitest';
import type { OpenIdClientOidcOptions } from '../../../shared/adapters/oidc/openid-client-oidc';
import { buildAppContainer, type ContainerParts } from '../../../shared/container/build-app-container';
import { commonEnvSchema, parseEnv } from '../../../shared/container/config';
import type { OidcClient } from '../../../shared/domain/sso/ports';

/*
 * Only what serves the OIDC routes (the auth function, the local runtime) passes an OIDC client to the container,
 * so that no other Lambda bundle carries openid-client. Nothing here does I/O: the container talks to nothing
 * until a request comes.
 */

const SSO_ENV = { OIDC_ISSUER: 'https://login.example.com', OIDC_CLIENT_ID: 'docservice', OIDC_REDIRECT_URI: 'https://api.example.com/api/auth/oidc/callback' };

const partsWith = (env: Record<string, string>, oidcClient?: ContainerParts['oidcClient']): ContainerParts =>
  bareContainerParts({ env: parseEnv(commonEnvSchema, env), ...(oidcClient ? { oidcClient } : {}) });

const fakeClient: OidcClient = {
  startAuthorization: () => Promise.reject(new Error('not called')),
  redeem: () => Promise.reject(new Error('not called')),
};

describe('single sign-on in the container', () => {
  it('stops the start when OIDC_* is set for a function given no OIDC client', () => {
    // Arrange
    const parts = partsWith(SSO_ENV);

    // Act
    const build = () => buildAppContainer(parts);

    // Assert
    expect(build).toThrow('Invalid configuration: OIDC_ISSUER: is set, but this function serves no single sign-on');
  });

  it('leaves single sign-on off without OIDC_*, with or without a client', () => {
    // Arrange
    const withClient = partsWith({}, () => fakeClient);
    const withoutClient = partsWith({});

    // Act
    const containers = [buildAppContainer(withClient), buildAppContainer(withoutClient)];

    // Assert
    expect(containers.map((container) => container.oidc)).toEqual([null, null]);
  });

  it('makes the relying party with the given client from the OIDC_* settings', async () => {
    // Arrange
    const made: OpenIdClientOidcOptions[] = [];
    const parts = partsWith({ ...SSO_ENV, OIDC_CLIENT_SECRET: 'shh', OIDC_SCOPES: 'email' }, (options) => {
      made.push(options);
      return fakeClient;
    });

    // Act
    const container = buildAppContainer(parts);

    // Assert
    expect(container.oidc?.client).toBe(fakeClient);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ issuer: SSO_ENV.OIDC_ISSUER, clientId: 'docservice', redirectUri: SSO_ENV.OIDC_REDIRECT_URI, scopes: 'openid email' });
    await expect(made[0]!.clientSecret()).resolves.toBe('shh');
  });
});
