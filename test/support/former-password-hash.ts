import { randomBytes, scryptSync } from 'node:crypto';

/** The scrypt costs (N) the service hashed passwords with before Argon2id: 2^14, then OWASP's minimum, 2^17. */
export const FORMER_SCRYPT_COSTS = [2 ** 14, 2 ** 17] as const;

/**
 * A password hash as the service stored them before Argon2id, scrypt at `N` (r = 8, p = 1) in its self-describing
 * format `scrypt$N$r$p$salt$key`: what an account made then still has until its next login.
 */
export function formerPasswordHash(password: string, N: (typeof FORMER_SCRYPT_COSTS)[number] = 2 ** 14): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N, r: 8, p: 1, maxmem: 128 * 8 * (N + 3) });
  return ['scrypt', N, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
}
