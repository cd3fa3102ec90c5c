import { scrypt, type ScryptOptions } from 'node:crypto';

/** scrypt's cost as the service stored it in each hash before Argon2id (N = 2^14, later 2^17; r = 8, p = 1). */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/** A password hash of the service before Argon2id, `scrypt$N$r$p$salt$key` (base64url parts), read. */
export interface LegacyScryptHash {
  params: ScryptParams;
  salt: Buffer;
  key: Buffer;
}

/**
 * Reads a hash of the former format; null for anything else. Only parameters the service could have written are
 * accepted (N a power of two up to 2^20, r and p small, a salt and a key of some length), so a stored value can
 * never ask for more memory nor compare an empty key.
 */
export function parseLegacyScryptHash(hash: string): LegacyScryptHash | null {
  const [scheme, N, r, p, salt, key, ...rest] = hash.split('$');
  if (scheme !== 'scrypt' || !salt || !key || rest.length) return null;
  const params = { N: Number(N), r: Number(r), p: Number(p) };
  const withinBounds = params.N >= 2 && params.N <= 2 ** 20 && Number.isInteger(Math.log2(params.N)) && params.r >= 1 && params.r <= 32 && params.p >= 1 && params.p <= 16;
  if (!Object.values(params).every((value) => Number.isSafeInteger(value)) || !withinBounds) return null;
  const parsed = { params, salt: Buffer.from(salt, 'base64url'), key: Buffer.from(key, 'base64url') };
  return parsed.salt.length >= 8 && parsed.key.length >= 16 ? parsed : null;
}

/** The scrypt key of `password` for a former hash, on libuv's thread pool (node:crypto's scrypt does not block). */
export function legacyScryptKey(password: string, { params: { N, r, p }, salt, key }: LegacyScryptHash): Promise<Buffer> {
  // Node refuses above 32 MiB by default; this is the memory OpenSSL counts for these parameters.
  const options: ScryptOptions = { N, r, p, maxmem: 128 * r * (N + p + 2) };
  return new Promise((resolve, reject) => {
    scrypt(password, salt, key.length, options, (error, derived) => (error ? reject(error) : resolve(derived)));
  });
}
