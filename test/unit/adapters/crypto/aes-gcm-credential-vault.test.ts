import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AesGcmCredentialVault } from '../../../../shared/adapters/crypto/aes-gcm-credential-vault';

const CONTEXT = { workspaceId: 'ws-1', sourceId: 'src-1' };
const PASSWORD = 'correct horse battery staple';

describe('AesGcmCredentialVault', () => {
  const vault = () => new AesGcmCredentialVault(randomBytes(32));

  it('opens what it sealed, for the same workspace and source', async () => {
    const aes = vault();

    const sealed = await aes.seal(PASSWORD, CONTEXT);

    expect(await aes.open(sealed, CONTEXT)).toBe(PASSWORD);
  });

  it('never stores the plaintext in the sealed form', async () => {
    const sealed = await vault().seal(PASSWORD, CONTEXT);

    expect(sealed).not.toContain(PASSWORD);
    expect(sealed).not.toContain(Buffer.from(PASSWORD).toString('base64url'));
  });

  it('does not open a value sealed for another source', async () => {
    const aes = vault();
    const sealed = await aes.seal(PASSWORD, CONTEXT);

    await expect(aes.open(sealed, { ...CONTEXT, sourceId: 'src-2' })).rejects.toThrow();
  });

  it('does not open a value sealed for another workspace', async () => {
    const aes = vault();
    const sealed = await aes.seal(PASSWORD, CONTEXT);

    await expect(aes.open(sealed, { ...CONTEXT, workspaceId: 'ws-2' })).rejects.toThrow();
  });

  it('does not open a tampered ciphertext', async () => {
    const aes = vault();
    const [version, iv, tag, ciphertext] = (await aes.seal(PASSWORD, CONTEXT)).split('.');
    const flipped = Buffer.from(ciphertext!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;

    await expect(aes.open([version, iv, tag, flipped.toString('base64url')].join('.'), CONTEXT)).rejects.toThrow();
  });

  it('does not open a value sealed under another key', async () => {
    const sealed = await vault().seal(PASSWORD, CONTEXT);

    await expect(vault().open(sealed, CONTEXT)).rejects.toThrow();
  });

  it('refuses something that is not a sealed credential', async () => {
    await expect(vault().open('plain-password', CONTEXT)).rejects.toThrow('not a sealed credential');
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => new AesGcmCredentialVault(randomBytes(16))).toThrow('32 bytes');
  });
});
