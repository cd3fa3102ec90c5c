import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { Argon2idThreads } from '../../../../shared/adapters/crypto/argon2id-threads';

/** libargon2's key (node-argon2 0.45, raw) for "password", salt "somesaltsomesalt", 1 MiB, 1 pass, 1 lane, 32 bytes. */
const REFERENCE = { password: 'password', salt: Buffer.from('somesaltsomesalt'), params: { m: 1024, t: 1, p: 1 }, key: '16253e23a29b20d7c7a0c05f9150e74baaa6cf1832edc838d484fc250a02bef9' };

describe('Argon2idThreads', () => {
  it("computes libargon2's key for the same input", async () => {
    // Arrange
    const threads = new Argon2idThreads(1);

    // Act
    const key = await threads.derive(REFERENCE.password, REFERENCE.salt, REFERENCE.params, 32);

    // Assert
    expect(key.toString('hex')).toBe(REFERENCE.key);
  });

  it('computes more keys at once than it has threads, each in turn and each right', async () => {
    // Arrange
    const threads = new Argon2idThreads(2);
    const passwords = ['a-password', 'b-password', 'c-password', 'd-password', 'e-password'];
    const one = (password: string) => threads.derive(password, REFERENCE.salt, REFERENCE.params, 32).then((key) => key.toString('hex'));
    const alone = [];
    for (const password of passwords) alone.push(await one(password));

    // Act
    const atOnce = await Promise.all(passwords.map(one));

    // Assert
    expect(atOnce).toEqual(alone);
    expect(new Set(atOnce).size).toBe(passwords.length);
  });

  it('fails a key it cannot compute and goes on with the next', async () => {
    // Arrange
    const threads = new Argon2idThreads(1);

    // Act
    const impossible = threads.derive('pw', REFERENCE.salt, { m: 4, t: 1, p: 1 }, 32);
    const next = threads.derive(REFERENCE.password, REFERENCE.salt, REFERENCE.params, 32);

    // Assert
    await expect(impossible).rejects.toThrow(/Argon2id failed/u);
    expect((await next).toString('hex')).toBe(REFERENCE.key);
  });

  it('holds a process open while it computes a key and no longer: a command that hashes then ends exits', async () => {
    // Arrange: a process whose only work is one key, and which never closes the threads.
    const module = fileURLToPath(new URL('../../../../shared/adapters/crypto/argon2id-threads.ts', import.meta.url));
    const script = [
      `const { Argon2idThreads } = await import(${JSON.stringify(module)});`,
      `const key = await new Argon2idThreads(1).derive('password', Buffer.from('somesaltsomesalt'), { m: 1024, t: 1, p: 1 }, 32);`,
      `console.log(key.toString('hex'));`,
    ].join('\n');

    // Act
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], { timeout: 60_000 });

    // Assert
    expect(stdout.trim()).toBe(REFERENCE.key);
  });
});
