import { describe, expect, it } from 'vitest';
import { commonEnvSchema, parseEnv } from '../../../../shared/container/kit/config';
import { passwordHasher } from '../../../../shared/container/kit/serving';

describe('passwordHasher', () => {
  it("hashes with Argon2id at OWASP's minimum when PASSWORD_HASH_COST is not set", async () => {
    // Arrange
    const hasher = passwordHasher(parseEnv(commonEnvSchema, {}));

    // Act
    const hash = await hasher.hash('correct horse');

    // Assert
    expect(hash.startsWith('$argon2id$v=19$m=19456,t=2,p=1$')).toBe(true);
  });

  it('hashes with as many passes as PASSWORD_HASH_COST says', async () => {
    // Arrange
    const hasher = passwordHasher(parseEnv(commonEnvSchema, { PASSWORD_HASH_COST: '3' }));

    // Act
    const hash = await hasher.hash('correct horse');

    // Assert
    expect(hash.startsWith('$argon2id$v=19$m=19456,t=3,p=1$')).toBe(true);
  });
});
