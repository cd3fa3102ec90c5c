import { describe, expect, it } from 'vitest';
import { ScryptPasswordHasher } from '../../../shared/adapters/crypto/scrypt-password-hasher';

const hasher = new ScryptPasswordHasher({ N: 1024, r: 8, p: 1 });

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
  });
});
