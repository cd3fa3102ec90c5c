import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { PasswordHasher } from '../../domain/users/ports';

const scryptAsync = (password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    scrypt(password, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
  });

/** Cost parameters; stored inside each hash so they can be raised later without breaking old hashes. */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

const KEY_LENGTH = 32;
const DEFAULT_PARAMS: ScryptParams = { N: 16384, r: 8, p: 1 };

/** Passwords hashed with scrypt from node:crypto, as `scrypt$N$r$p$salt$key` (base64url parts). */
export class ScryptPasswordHasher implements PasswordHasher {
  private readonly decoySalt = randomBytes(16);

  constructor(private readonly params: ScryptParams = DEFAULT_PARAMS) {}

  async hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await scryptAsync(password, salt, KEY_LENGTH, this.options(this.params));
    const { N, r, p } = this.params;
    return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
  }

  async verify(password: string, hash: string | null): Promise<boolean> {
    const parsed = hash === null ? null : parse(hash);
    if (!parsed) {
      await scryptAsync(password, this.decoySalt, KEY_LENGTH, this.options(this.params));
      return false;
    }
    const key = await scryptAsync(password, parsed.salt, parsed.key.length, this.options(parsed.params));
    return timingSafeEqual(key, parsed.key);
  }

  private options({ N, r, p }: ScryptParams): ScryptOptions {
    return { N, r, p, maxmem: 256 * N * r };
  }
}

function parse(hash: string): { params: ScryptParams; salt: Buffer; key: Buffer } | null {
  const [scheme, N, r, p, salt, key] = hash.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return null;
  return {
    params: { N: Number(N), r: Number(r), p: Number(p) },
    salt: Buffer.from(salt, 'base64url'),
    key: Buffer.from(key, 'base64url'),
  };
}
