import type * as NodeCrypto from 'node:crypto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SCRYPT_PARAMS, ScryptPasswordHasher } from '../../../../shared/adapters/crypto/scrypt-password-hasher';
import { formerPasswordHash } from '../../../support/former-password-hash';

/** The N of every scrypt computation, in order: node's own scrypt runs, and the test reads what it was asked. */
const scryptCosts = vi.hoisted((): number[] => []);
vi.mock('node:crypto', async (importOriginal) => {
  const crypto = await importOriginal<typeof NodeCrypto>();
  const scrypt = (...args: Parameters<typeof crypto.scrypt>) => {
    scryptCosts.push((args[3] as { N: number }).N);
    return crypto.scrypt(...args);
  };
  return { ...crypto, scrypt, default: { ...crypto, scrypt } };
});

const hasher = new ScryptPasswordHasher({ N: 1024, r: 8, p: 1 });

beforeEach(() => {
  scryptCosts.length = 0;
});

describe('ScryptPasswordHasher', () => {
  it('verifies the password it hashed and refuses another', async () => {
    const hash = await hasher.hash('correct horse');

    expect(await hasher.verify('correct horse', hash)).toBe(true);
    expect(await hasher.verify('wrong horse', hash)).toBe(false);
  });

  it('never stores the password itself, and salts each hash', async () => {
    const [a, b] = await Promise.all([hasher.hash('same password'), hasher.hash('same password')]);

    expect(a).not.toContain('same password');
    expect(a).not.toBe(b);
  });

  it('keeps its cost parameters in the hash, so that old hashes verify after they change', async () => {
    const old = await hasher.hash('pw-from-2025');

    expect(old.startsWith('scrypt$1024$8$1$')).toBe(true);
    expect(await new ScryptPasswordHasher({ N: 2048, r: 8, p: 1 }).verify('pw-from-2025', old)).toBe(true);
  });

  it('answers false for no hash or a malformed one', async () => {
    expect(await hasher.verify('anything', null)).toBe(false);
    expect(await hasher.verify('anything', 'plain-text-password')).toBe(false);
    expect(await hasher.verify('anything', 'scrypt$x$8$1$c2FsdA$a2V5')).toBe(false);
  });

  it('computes one hash of the current cost for an unknown user', async () => {
    const current = new ScryptPasswordHasher({ N: 2 ** 10, r: 8, p: 1 });

    await current.verify('wrong', null);

    expect(scryptCosts).toEqual([2 ** 10]);
  });

  it('computes a decoy of the current cost beside a hash of weaker parameters, so it answers no sooner than for an unknown user', async () => {
    const current = new ScryptPasswordHasher({ N: 2 ** 10, r: 8, p: 1 });
    const weak = await new ScryptPasswordHasher({ N: 2 ** 8, r: 8, p: 1 }).hash('pw');
    scryptCosts.length = 0;

    const verified = await current.verify('wrong', weak);

    expect(verified).toBe(false);
    expect([...scryptCosts].sort((a, b) => a - b)).toEqual([2 ** 8, 2 ** 10]);
  });

  describe('by default', () => {
    const standard = new ScryptPasswordHasher();

    it('hashes with OWASP\'s minimum cost, N = 2^17, r = 8, p = 1, above Node\'s default memory limit', async () => {
      const hash = await standard.hash('correct horse');

      expect(DEFAULT_SCRYPT_PARAMS).toEqual({ N: 131_072, r: 8, p: 1 });
      expect(hash.startsWith('scrypt$131072$8$1$')).toBe(true);
      expect(await standard.verify('correct horse', hash)).toBe(true);
    });

    it('verifies a hash written with the former N = 2^14', async () => {
      const old = formerPasswordHash('pw-from-2025');

      expect(await standard.verify('pw-from-2025', old)).toBe(true);
      expect(await standard.verify('another', old)).toBe(false);
    });

    it('asks for a hash with the former N = 2^14 to be replaced', () => {
      expect(standard.needsRehash(formerPasswordHash('pw-from-2025'))).toBe(true);
    });
  });

  describe('needsRehash', () => {
    it('is false for a hash of its own parameters', async () => {
      expect(hasher.needsRehash(await hasher.hash('pw'))).toBe(false);
    });

    it('is true when N, r or p is below its own', async () => {
      const strong = new ScryptPasswordHasher({ N: 2048, r: 8, p: 2 });

      expect(strong.needsRehash(await new ScryptPasswordHasher({ N: 1024, r: 8, p: 2 }).hash('pw'))).toBe(true);
      expect(strong.needsRehash(await new ScryptPasswordHasher({ N: 2048, r: 4, p: 2 }).hash('pw'))).toBe(true);
      expect(strong.needsRehash(await new ScryptPasswordHasher({ N: 2048, r: 8, p: 1 }).hash('pw'))).toBe(true);
    });

    it('is false for a hash of stronger parameters, which is kept', async () => {
      expect(hasher.needsRehash(await new ScryptPasswordHasher({ N: 2048, r: 8, p: 1 }).hash('pw'))).toBe(false);
    });

    it('is false for what is not a scrypt hash (an SSO user has none)', () => {
      expect(hasher.needsRehash('sso!7f0c1a52-5b8e-4c7e-9d0b-0c3b1e2a4f6d')).toBe(false);
    });
  });
});
