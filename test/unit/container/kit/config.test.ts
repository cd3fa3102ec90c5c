import { describe, expect, it } from 'vitest';
import { commonEnvSchema, parseEnv, planCatalog, oidcSettings } from '../../../../shared/container/kit/config';

describe('configuration', () => {
  it('fills in defaults for what is not set', () => {
    const config = parseEnv(commonEnvSchema, {});

    expect(config).toMatchObject({ JWT_TTL_SECONDS: 3600, REGISTRATION_MODE: 'workspace', CORS_ORIGINS: '*' });
  });

  it('parses booleans, numbers and origin lists', () => {
    const config = parseEnv(commonEnvSchema, {
      REGISTRATION_MODE: 'closed',
      JWT_TTL_SECONDS: '900',
      CORS_ORIGINS: 'https://a.example, https://b.example',
    });

    expect(config).toMatchObject({
      REGISTRATION_MODE: 'closed',
      JWT_TTL_SECONDS: 900,
      CORS_ORIGINS: ['https://a.example', 'https://b.example'],
    });
  });

  it('fails at once naming each bad variable', () => {
    const parse = () => parseEnv(commonEnvSchema, { REGISTRATION_MODE: 'maybe', JWT_TTL_SECONDS: '5' });

    expect(parse).toThrow(/^Invalid configuration: /);
    expect(parse).toThrow(/REGISTRATION_MODE: /);
    expect(parse).toThrow(/JWT_TTL_SECONDS: /);
  });

  it.each(['0', '11', '17'])("refuses a PASSWORD_HASH_COST of %s, outside Argon2id's 1 to 10 passes", (value) => {
    const parse = () => parseEnv(commonEnvSchema, { PASSWORD_HASH_COST: value });

    expect(parse).toThrow(/PASSWORD_HASH_COST: /);
  });
});

describe('plan configuration (PLANS, DEFAULT_PLAN)', () => {
  const plan = { documents_stored: 10, bytes_stored: 'unlimited', ocr_pages_per_month: 5, sources: 1, members: 2, api_tokens: 3 };

  it('gives one plan without limits when PLANS is not set', () => {
    expect(planCatalog(parseEnv(commonEnvSchema, {})).defaultPlan).toBe('default');
  });

  it('reads the plans and the default plan', () => {
    const catalog = planCatalog(parseEnv(commonEnvSchema, { PLANS: JSON.stringify({ free: plan, team: plan }), DEFAULT_PLAN: 'team' }));

    expect([Object.keys(catalog.plans), catalog.defaultPlan]).toEqual([['free', 'team'], 'team']);
  });

  it('stops the start with one line naming PLANS and the place of the mistake', () => {
    const env = parseEnv(commonEnvSchema, { PLANS: JSON.stringify({ free: { ...plan, members: -1 } }) });

    expect(() => planCatalog(env)).toThrow(/^Invalid configuration: PLANS: free\.members: must be a whole number/);
  });

  it('names DEFAULT_PLAN when it is not one of the plans', () => {
    const env = parseEnv(commonEnvSchema, { PLANS: JSON.stringify({ free: plan }), DEFAULT_PLAN: 'gold' });

    expect(() => planCatalog(env)).toThrow(/^Invalid configuration: DEFAULT_PLAN: default plan "gold"/);
  });
});

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
