import { jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { awsHttp } from '../../../../shared/container/kit/aws-http';

const SECRET = 'a-test-signing-key-of-at-least-32-characters';
const ARN = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:jwt';

describe('the JWT key of the cloud HTTP functions', () => {
  it('signs with JWT_SECRET when no JWT_SECRET_ARN is set (the bundled functions against the emulators)', async () => {
    const { gate } = awsHttp({ TABLE_NAME: 'table', JWT_SECRET: SECRET });

    const { token } = await gate.tokens.issue({ userId: 'u-1', role: 'viewer', tokenVersion: 0 });

    await expect(jwtVerify(token, new TextEncoder().encode(SECRET))).resolves.toBeDefined();
  });

  it('refuses JWT_SECRET beside JWT_SECRET_ARN, so a deployed function never takes a key from its environment', () => {
    expect(() => awsHttp({ TABLE_NAME: 'table', JWT_SECRET_ARN: ARN, JWT_SECRET: SECRET })).toThrow(/JWT_SECRET: must not be set with JWT_SECRET_ARN/);
  });

  it('needs one of them', () => {
    expect(() => awsHttp({ TABLE_NAME: 'table' })).toThrow(/JWT_SECRET_ARN: is required/);
  });

  it('refuses a JWT_SECRET shorter than 32 characters', () => {
    expect(() => awsHttp({ TABLE_NAME: 'table', JWT_SECRET: 'short' })).toThrow(/JWT_SECRET: /);
  });
});
