import { afterEach, describe, expect, it, vi } from 'vitest';
import { Argon2idPasswordHasher, DEFAULT_ARGON2ID_PARAMS, type Argon2idParams } from '../../../../shared/adapters/crypto/argon2id-password-hasher';
import { Argon2idThreads } from '../../../../shared/adapters/crypto/argon2id-threads';
import { FORMER_SCRYPT_COSTS, formerPasswordHash } from '../../../support/former-password-hash';

/** A cheap cost (1 MiB, 1 pass): the hasher's rules are the same at any cost. */
const CHEAP: Argon2idParams = { m: 1024, t: 1, p: 1 };
const hasher = new Argon2idPasswordHasher(CHEAP);

/** The parameters of every Argon2id key the hashers compute while `act` runs (they still compute them). */
async function argon2idCostsOf(act: () => Promise<unknown>): Promise<Argon2idParams[]> {
  const derive = vi.spyOn(Argon2idThreads.prototype, 'derive');
  await act();
  return derive.mock.calls.map(([, , params]) => params);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Argon2idPasswordHasher', () => {
  it('verifies the password it hashed and refuses another', async () => {
    // Arrange
    const hash = await hasher.hash('correct horse');

    // Act
    const verdicts = [await hasher.verify('correct horse', hash), await hasher.verify('wrong horse', hash)];

    // Assert
    expect(verdicts).toEqual([true, false]);
  });

  it('never stores the password itself, and salts each hash', async () => {
    // Act
    const [a, b] = await Promise.all([hasher.hash('same password'), hasher.hash('same password')]);

    // Assert
    expect(a).not.toContain('same password');
    expect(a).not.toBe(b);
  });

  it('writes a PHC string that names its parameters, so that hashes verify after they change', async () => {
    // Act
    const hash = await hasher.hash('pw-from-2026');

    // Assert
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/u);
    expect(await new Argon2idPasswordHasher({ m: 2048, t: 2, p: 1 }).verify('pw-from-2026', hash)).toBe(true);
  });

  it('verifies a hash made by another implementation (node-argon2, libargon2), which orders the parameters m, p, t', async () => {
    // Arrange: node-argon2 0.45 at m = 19456, t = 2, p = 1, salt "somesaltsomesalt".
    const reference = '$argon2id$v=19$m=19456,p=1,t=2$c29tZXNhbHRzb21lc2FsdA$ISO7kkvFzh19GM8qB7patN3C3Y9HHsjlVTfEZ9T600Y';

    // Act
    const verdicts = [await hasher.verify('correct horse battery staple', reference), await hasher.verify('correct horse battery stapler', reference)];

    // Assert
    expect(verdicts).toEqual([true, false]);
  });

  it('answers false for no hash, a malformed one, or one whose parameters are out of bounds or missing', async () => {
    // Arrange
    const key = 'c29tZXNhbHRzb21lc2FsdA$ISO7kkvFzh19GM8qB7patN3C3Y9HHsjlVTfEZ9T600Y';
    const hashes = [null, 'plain-text-password', 'scrypt$x$8$1$c2FsdA$a2V5', `$argon2i$v=19$m=1024,t=1,p=1$${key}`, `$argon2id$v=19$m=9999999,t=1,p=1$${key}`, `$argon2id$v=19$m=1024,t=1,t=1$${key}`];

    // Act
    const verdicts = await Promise.all(hashes.map((hash) => hasher.verify('anything', hash)));

    // Assert
    expect(verdicts).toEqual(hashes.map(() => false));
  });

  it('computes one key of its own parameters for an unknown user', async () => {
    // Act
    const costs = await argon2idCostsOf(() => hasher.verify('wrong', null));

    // Assert
    expect(costs).toEqual([CHEAP]);
  });

  it('computes a decoy of its own parameters beside a weaker hash, so that it answers no sooner than for an unknown user', async () => {
    // Arrange
    const weak = await new Argon2idPasswordHasher({ m: 512, t: 1, p: 1 }).hash('pw');

    // Act
    const costs = await argon2idCostsOf(() => hasher.verify('wrong', weak));

    // Assert
    expect(costs).toEqual(expect.arrayContaining([{ m: 512, t: 1, p: 1 }, CHEAP]));
    expect(costs).toHaveLength(2);
  });

  describe.each(FORMER_SCRYPT_COSTS)('with a former scrypt hash (N = %i)', (N) => {
    const former = formerPasswordHash('pw-from-2025', N);

    it('verifies the right password and refuses another', async () => {
      // Act
      const verdicts = [await hasher.verify('pw-from-2025', former), await hasher.verify('another', former)];

      // Assert
      expect(verdicts).toEqual([true, false]);
    });

    it('asks for the hash to be replaced', () => {
      // Act
      const replace = hasher.needsRehash(former);

      // Assert
      expect(replace).toBe(true);
    });

    it('computes a decoy of its own parameters beside it', async () => {
      // Act
      const costs = await argon2idCostsOf(() => hasher.verify('another', former));

      // Assert
      expect(costs).toEqual([CHEAP]);
    });
  });

  describe('needsRehash', () => {
    it('is false for a hash of its own parameters', async () => {
      // Arrange
      const hash = await hasher.hash('pw');

      // Act
      const replace = hasher.needsRehash(hash);

      // Assert
      expect(replace).toBe(false);
    });

    it('is true when m, t or p is below its own', async () => {
      // Arrange
      const strong = new Argon2idPasswordHasher({ m: 2048, t: 2, p: 2 });
      const weaker = [{ m: 1024, t: 2, p: 2 }, { m: 2048, t: 1, p: 2 }, { m: 2048, t: 2, p: 1 }];
      const hashes = await Promise.all(weaker.map((params) => new Argon2idPasswordHasher(params).hash('pw')));

      // Act
      const replace = hashes.map((hash) => strong.needsRehash(hash));

      // Assert
      expect(replace).toEqual([true, true, true]);
    });

    it('is false for a hash of stronger parameters, which is kept', async () => {
      // Arrange
      const hash = await new Argon2idPasswordHasher({ m: 2048, t: 2, p: 1 }).hash('pw');

      // Act
      const replace = hasher.needsRehash(hash);

      // Assert
      expect(replace).toBe(false);
    });

    it('is false for what is not a password hash (an SSO user has none)', () => {
      // Act
      const replace = hasher.needsRehash('sso!7f0c1a52-5b8e-4c7e-9d0b-0c3b1e2a4f6d');

      // Assert
      expect(replace).toBe(false);
    });
  });

  describe('by default', () => {
    const standard = new Argon2idPasswordHasher();

    it("hashes with OWASP's minimum for Argon2id, m = 19 MiB, t = 2, p = 1", async () => {
      // Act
      const hash = await standard.hash('correct horse');

      // Assert
      expect(DEFAULT_ARGON2ID_PARAMS).toEqual({ m: 19_456, t: 2, p: 1 });
      expect(hash.startsWith('$argon2id$v=19$m=19456,t=2,p=1$')).toBe(true);
      expect(await standard.verify('correct horse', hash)).toBe(true);
    });
  });
});
