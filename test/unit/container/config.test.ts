import { describe, expect, it } from 'vitest';
import { commonEnvSchema, parseEnv } from '../../../shared/container/config';

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
