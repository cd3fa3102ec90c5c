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

/** OWASP's minimum for scrypt (Password Storage Cheat Sheet): N = 2^17, r = 8, p = 1. */
// N written out, not as 2 ** 17: esbuild keeps an exponentiation as a possible side effect, and with it this
// module in every bundle of the container, hashing or not.
export const DEFAULT_SCRYPT_PARAMS: Readonly<ScryptParams> = { N: 131_072, r: 8, p: 1 };

/**
 * Hashes computed at once. Each holds 128 * N * r bytes (128 MiB at the default) and a thread of libuv's pool,
 * which file reads and DNS lookups share: two leave the pool's other threads free and bound the memory a burst
 * of logins takes, and on two cores more would not finish sooner.
 */
const DEFAULT_CONCURRENCY = 2;

/**
 * Passwords hashed with scrypt from node:crypto, as `scrypt$N$r$p$salt$key` (base64url parts). A hash names its
 * own parameters, so hashes made with older ones still verify; {@link needsRehash} tells which to replace.
 */
export class ScryptPasswordHasher implements PasswordHasher {
  private readonly decoySalt = randomBytes(16);
  private readonly gate: Gate;

  constructor(
    private readonly params: Readonly<ScryptParams> = DEFAULT_SCRYPT_PARAMS,
    concurrency = DEFAULT_CONCURRENCY,
  ) {
    this.gate = new Gate(concurrency);
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await this.derive(password, salt, KEY_LENGTH, this.params);
    const { N, r, p } = this.params;
    return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
  }

  async verify(password: string, hash: string | null): Promise<boolean> {
    const parsed = hash === null ? null : parse(hash);
    if (!parsed) {
      await this.derive(password, this.decoySalt, KEY_LENGTH, this.params);
      return false;
    }
    // A hash of weaker parameters would answer sooner than an unknown user's decoy and tell the two apart: a decoy
    // of the current ones runs beside it.
    const [key] = await Promise.all([
      this.derive(password, parsed.salt, parsed.key.length, parsed.params),
      this.weaker(parsed) ? this.derive(password, this.decoySalt, KEY_LENGTH, this.params) : undefined,
    ]);
    return timingSafeEqual(key, parsed.key);
  }

  /** True for a scrypt hash made with weaker parameters (or a shorter key) than this hasher's. */
  needsRehash(hash: string): boolean {
    const parsed = parse(hash);
    return parsed !== null && this.weaker(parsed);
  }

  private weaker({ params: { N, r, p }, key }: ParsedHash): boolean {
    return N < this.params.N || r < this.params.r || p < this.params.p || key.length < KEY_LENGTH;
  }

  private derive(password: string, salt: Buffer, keyLength: number, { N, r, p }: ScryptParams): Promise<Buffer> {
    // Node refuses above 32 MiB by default; this is the memory OpenSSL counts for these parameters.
    const maxmem = 128 * r * (N + p + 2);
    return this.gate.run(() => scryptAsync(password, salt, keyLength, { N, r, p, maxmem }));
  }
}

interface ParsedHash {
  params: ScryptParams;
  salt: Buffer;
  key: Buffer;
}

function parse(hash: string): ParsedHash | null {
  const [scheme, N, r, p, salt, key, ...rest] = hash.split('$');
  if (scheme !== 'scrypt' || !salt || !key || rest.length) return null;
  const params = { N: Number(N), r: Number(r), p: Number(p) };
  if (!Object.values(params).every((value) => Number.isSafeInteger(value) && value > 0)) return null;
  return { params, salt: Buffer.from(salt, 'base64url'), key: Buffer.from(key, 'base64url') };
}

/** Runs at most `limit` tasks at once; the others wait their turn, first come first served. */
class Gate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
