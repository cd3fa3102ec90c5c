import { describe, expect, it } from 'vitest';
import { hashToken, isWellFormedToken, looksLikeApiToken, newToken, TOKEN_LENGTH } from '../../../../shared/domain/tokens/token-format';

describe('API token format', () => {
  it('is dst_, 43 base62 characters of 256 random bits and a 6-character checksum', () => {
    const token = newToken();
    expect(token).toMatch(/^dst_[0-9A-Za-z]{49}$/);
    expect(token).toHaveLength(TOKEN_LENGTH);
    expect(isWellFormedToken(token)).toBe(true);
    expect(looksLikeApiToken(token)).toBe(true);
  });

  it('encodes every 256-bit value, the largest and the smallest, in the same length', () => {
    expect(isWellFormedToken(newToken(Buffer.alloc(32, 0xff)))).toBe(true);
    expect(newToken(Buffer.alloc(32, 0))).toBe(`dst_${'0'.repeat(43)}${newToken(Buffer.alloc(32, 0)).slice(47)}`);
    expect(() => newToken(Buffer.alloc(16))).toThrow(/32 random bytes/);
  });

  it('tells a real token from noise by its checksum', () => {
    const token = newToken();
    const changed = token.slice(0, 10) + (token[10] === 'a' ? 'b' : 'a') + token.slice(11);
    expect(isWellFormedToken(changed)).toBe(false);
    expect(isWellFormedToken(token.slice(0, -1))).toBe(false);
    expect(isWellFormedToken(`${token}x`)).toBe(false);
    expect(isWellFormedToken(`dsx_${token.slice(4)}`)).toBe(false);
    expect(isWellFormedToken(`dst_${'-'.repeat(49)}`)).toBe(false);
  });

  it('makes a new secret each time and hashes it with SHA-256', () => {
    expect(newToken()).not.toBe(newToken());
    expect(hashToken('dst_x')).toMatch(/^[0-9a-f]{64}$/);
    expect(looksLikeApiToken('eyJhbGciOiJIUzI1NiJ9.e30.c2ln')).toBe(false);
  });
});
