import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * The format of an API token: `dst_`, 32 random bytes (256 bits) in base62 (43 characters) and a CRC32 of
 * those 43 characters in base62 (6 characters), 53 characters in all. The prefix lets secret scanners find
 * tokens; the checksum lets them (and us, before any read) tell a real token from a string that merely looks
 * like one.
 */
export const TOKEN_PREFIX = 'dst_';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 43;
const CHECKSUM_LENGTH = 6;
export const TOKEN_LENGTH = TOKEN_PREFIX.length + RANDOM_LENGTH + CHECKSUM_LENGTH;
/** How many characters of a token a listing shows: the prefix and four of the random part. */
export const SHOWN_PREFIX_LENGTH = TOKEN_PREFIX.length + 4;

const TOKEN_SHAPE = new RegExp(`^${TOKEN_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

const base62 = (value: bigint, length: number): string => {
  let out = '';
  let rest = value;
  while (rest > 0n) {
    out = ALPHABET[Number(rest % 62n)] + out;
    rest /= 62n;
  }
  return out.padStart(length, '0');
};

const checksumOf = (random: string): string => base62(BigInt(crc32(random)), CHECKSUM_LENGTH);

/** A new token; `bytes` is for tests (32 bytes), the default is crypto.randomBytes. */
export function newToken(bytes: Buffer = randomBytes(32)): string {
  if (bytes.length !== 32) throw new Error('an API token takes 32 random bytes');
  const random = base62(BigInt(`0x${bytes.toString('hex')}`), RANDOM_LENGTH);
  return `${TOKEN_PREFIX}${random}${checksumOf(random)}`;
}

/** Whether a bearer token is meant as an API token (then it is never tried as a JWT). */
export const looksLikeApiToken = (token: string): boolean => token.startsWith(TOKEN_PREFIX);

/** Whether the token has the format and its checksum holds: what a scanner, or authentication before a read, checks. */
export function isWellFormedToken(token: string): boolean {
  if (!TOKEN_SHAPE.test(token)) return false;
  const random = token.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + RANDOM_LENGTH);
  const given = Buffer.from(token.slice(TOKEN_PREFIX.length + RANDOM_LENGTH));
  return timingSafeEqual(given, Buffer.from(checksumOf(random)));
}

/** The hash a token is stored and found under: SHA-256, hex. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
