import { describe, expect, it } from 'vitest';
import { commonEnvSchema, parseEnv } from '../../../shared/container/config';

describe('configuration', () => {
  it('fills in defaults for what is not set', () => {
    const config = parseEnv(commonEnvSchema, {});

    expect(config).toMatchObject({ JWT_TTL_SECONDS: 3600, REGISTRATION_OPEN: true, CORS_ORIGINS: '*' });
  });

  it('parses booleans, numbers and origin lists', () => {
    const config = parseEnv(commonEnvSchema, {
      REGISTRATION_OPEN: 'false',
      JWT_TTL_SECONDS: '900',
      CORS_ORIGINS: 'https://a.example, https://b.example',
    });

    expect(config).toMatchObject({
      REGISTRATION_OPEN: false,
      JWT_TTL_SECONDS: 900,
      CORS_ORIGINS: ['https://a.example', 'https://b.example'],
    });
  });

  it('fails at once naming each bad variable', () => {
    const parse = () => parseEnv(commonEnvSchema, { REGISTRATION_OPEN: 'maybe', JWT_TTL_SECONDS: '5' });

    expect(parse).toThrow(/^Invalid configuration: /);
    expect(parse).toThrow(/REGISTRATION_OPEN: /);
    expect(parse).toThrow(/JWT_TTL_SECONDS: /);
  });
});
