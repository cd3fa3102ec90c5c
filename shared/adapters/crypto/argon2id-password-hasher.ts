import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { PasswordHasher } from '../../domain/users/ports';
import { Argon2idThreads, type Argon2idParams } from './argon2id-threads';
import { legacyScryptKey, parseLegacyScryptHash, type LegacyScryptHash } from './legacy-scrypt-hash';

export type { Argon2idParams } from './argon2id-threads';

/**
 * OWASP's minimum for Argon2id (Password Storage Cheat Sheet): 19 MiB, 2 passes, 1 lane. The other settings it
 * lists as equal (46 MiB and 1 pass, 12 MiB and 3, ...) cost the same time.
 */
export const DEFAULT_ARGON2ID_PARAMS: Readonly<Argon2idParams> = { m: 19_456, t: 2, p: 1 };

const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

/**
 * Hashes computed at once, each on a thread of its own: on two cores more would not finish sooner, and the event
 * loop's thread stays free to answer.
 */
const DEFAULT_CONCURRENCY = 2;

/** Bounds of what a stored hash may ask for: a corrupted one must not take a gigabyte or a minute. */
const MAX_MEMORY_KIB = 1_048_576;
const MAX_PASSES = 64;
const MAX_LANES = 16;

/** `$argon2id$v=19$<m, t and p, in any order>$<salt>$<key>`: libargon2 writes them in the order m, t, p, others not. */
const PHC = /^\$argon2id\$v=19\$([mtp]=\d{1,7},[mtp]=\d{1,7},[mtp]=\d{1,7})\$([A-Za-z0-9+/]{11,})\$([A-Za-z0-9+/]{22,})$/u;

interface Argon2idHash {
  scheme: 'argon2id';
  params: Argon2idParams;
  salt: Buffer;
  key: Buffer;
}

type StoredHash = Argon2idHash | (LegacyScryptHash & { scheme: 'scrypt' });

/**
 * Passwords hashed with Argon2id (hash-wasm's WebAssembly, on worker threads: argon2id-threads.ts), stored as PHC
 * strings, `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<key>` (base64 without padding). A hash names its own
 * parameters, so hashes made with other ones still verify; so do the service's former scrypt hashes
 * (legacy-scrypt-hash.ts). {@link needsRehash} tells which to replace: every scrypt hash, and an Argon2id one
 * weaker than this hasher's parameters.
 */
export class Argon2idPasswordHasher implements PasswordHasher {
  private readonly decoySalt = randomBytes(SALT_LENGTH);
  private readonly threads: Argon2idThreads;
  private readonly gate: Gate;

  constructor(
    private readonly params: Readonly<Argon2idParams> = DEFAULT_ARGON2ID_PARAMS,
    concurrency = DEFAULT_CONCURRENCY,
  ) {
    this.threads = new Argon2idThreads(concurrency);
    this.gate = new Gate(concurrency);
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_LENGTH);
    const key = await this.argon2id(password, salt, this.params, KEY_LENGTH);
    const { m, t, p } = this.params;
    return `$argon2id$v=19$m=${m},t=${t},p=${p}$${phcBase64(salt)}$${phcBase64(key)}`;
  }

  async verify(password: string, hash: string | null): Promise<boolean> {
    const stored = hash === null ? null : parse(hash);
    if (!stored) {
      await this.decoy(password);
      return false;
    }
    // A hash weaker than this hasher's would answer sooner than an unknown user's decoy and tell the two apart: a
    // decoy of the current parameters runs beside it.
    const [key] = await Promise.all([this.key(password, stored), this.weaker(stored) ? this.decoy(password) : undefined]);
    return timingSafeEqual(key, stored.key);
  }

  /** True for a former scrypt hash and for an Argon2id hash of weaker parameters (or a shorter key) than this hasher's. */
  needsRehash(hash: string): boolean {
    const stored = parse(hash);
    return stored !== null && this.weaker(stored);
  }

  private weaker(stored: StoredHash): boolean {
    if (stored.scheme === 'scrypt') return true;
    const { params: { m, t, p }, key } = stored;
    return m < this.params.m || t < this.params.t || p < this.params.p || key.length < KEY_LENGTH;
  }

  private key(password: string, stored: StoredHash): Promise<Buffer> {
    if (stored.scheme === 'scrypt') return this.gate.run(() => legacyScryptKey(password, stored));
    return this.argon2id(password, stored.salt, stored.params, stored.key.length);
  }

  private decoy(password: string): Promise<Buffer> {
    return this.argon2id(password, this.decoySalt, this.params, KEY_LENGTH);
  }

  private argon2id(password: string, salt: Buffer, params: Argon2idParams, length: number): Promise<Buffer> {
    return this.gate.run(() => this.threads.derive(password, salt, params, length));
  }
}

/** PHC's base64: the standard alphabet without padding. */
const phcBase64 = (bytes: Buffer): string => bytes.toString('base64').replace(/=+$/u, '');

function parse(hash: string): StoredHash | null {
  const legacy = parseLegacyScryptHash(hash);
  if (legacy) return { scheme: 'scrypt', ...legacy };
  const match = PHC.exec(hash);
  if (!match) return null;
  const named = new Map(match[1]!.split(',').map((pair) => [pair[0], Number(pair.slice(2))] as const));
  const [m = 0, t = 0, p = 0] = [named.get('m'), named.get('t'), named.get('p')];
  if (p < 1 || p > MAX_LANES || t < 1 || t > MAX_PASSES || m < 8 * p || m > MAX_MEMORY_KIB) return null;
  return { scheme: 'argon2id', params: { m, t, p }, salt: Buffer.from(match[2]!, 'base64'), key: Buffer.from(match[3]!, 'base64') };
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
