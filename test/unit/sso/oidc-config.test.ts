import { describe, expect, it } from 'vitest';
import { commonEnvSchema, oidcSettings, parseEnv } from '../../../shared/container/config';

const REQUIRED = { OIDC_ISSUER: 'https://idp.example', OIDC_CLIENT_ID: 'docservice', OIDC_REDIRECT_URI: 'https://docs.example/api/auth/oidc/callback' };
const settingsOf = (env: Record<string, string>) => oidcSettings(parseEnv(commonEnvSchema, env));

describe('OIDC configuration', () => {
  it('is off when none of issuer, client id and redirect URI is set', () => {
    expect(settingsOf({})).toBeNull();
  });

  it('fills in viewer as the default role, the standard scopes and JSON answers', () => {
    expect(settingsOf(REQUIRED)).toMatchObject({ defaultRole: 'viewer', scopes: 'openid email profile', frontendUrl: null, roleMap: {} });
  });

  it.each(Object.keys(REQUIRED))('fails naming %s when it is missing from the others', (missing) => {
    const env: Record<string, string> = { ...REQUIRED };
    delete env[missing];

    expect(() => settingsOf(env)).toThrow(new RegExp(`${missing}: is required`, 'u'));
  });

  it('parses the role map', () => {
    expect(settingsOf({ ...REQUIRED, OIDC_ROLE_CLAIM: 'groups', OIDC_ROLE_MAP: 'doc-editors=editor, ops=admin' })?.roleMap).toEqual({
      'doc-editors': 'editor',
      ops: 'admin',
    });
  });

  it.each(['editors=owner', 'editors', '=admin'])('refuses the role map entry %s naming OIDC_ROLE_MAP', (entry) => {
    expect(() => settingsOf({ ...REQUIRED, OIDC_ROLE_CLAIM: 'groups', OIDC_ROLE_MAP: entry })).toThrow(/OIDC_ROLE_MAP: /u);
  });

  it('refuses a role map without the claim it reads', () => {
    expect(() => settingsOf({ ...REQUIRED, OIDC_ROLE_MAP: 'a=editor' })).toThrow(/OIDC_ROLE_CLAIM: /u);
  });

  it('refuses a front-end URL with a fragment, where the token goes', () => {
    expect(() => settingsOf({ ...REQUIRED, OIDC_FRONTEND_URL: 'https://app.example/#/signed-in' })).toThrow(/OIDC_FRONTEND_URL: /u);
  });
});
