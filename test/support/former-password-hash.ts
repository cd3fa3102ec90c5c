import { randomBytes, scryptSync } from 'node:crypto';

/**
 * A password hash as the service stored them before its scrypt cost was raised (N = 2^14, r = 8, p = 1), in the
 * same self-describing format: what an account made then still has until its next login.
 */
export function formerPasswordHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N: 2 ** 14, r: 8, p: 1 });
  return ['scrypt', 2 ** 14, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
}
