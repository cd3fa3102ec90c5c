import { describe, expect, it } from 'vitest';
import { commonEnvSchema, parseEnv, planCatalog } from '../../../shared/container/config';

describe('configuration', () => {
  it('fills in defaults for what is not set', () => {
    const config = parseEnv(commonEnvSchema, {});

    expect(config).toMatchObject({ JWT_TTL_SECONDS: 3600, REGISTRATION_MODE: 'workspace', CORS_ORIGINS: '*', PASSWORD_HASH_COST: 17 });
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
