import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { KmsCredentialVault } from '../../../../../shared/adapters/aws/kms/credential-vault';

const CONTEXT = { workspaceId: 'ws-1', sourceId: 'src-1' };
const PASSWORD = 'correct horse battery staple';

describe('KmsCredentialVault', () => {
  const kms = mockClient(KMSClient);
  const KEY_ID = 'arn:aws:kms:eu-west-1:123456789012:key/test';
  /** What the fake KMS returns as ciphertext: opaque bytes, as the real one's are. */
  const BLOB = new Uint8Array([1, 2, 3, 4, 5, 250]);
  const vault = () => new KmsCredentialVault(() => new KMSClient({ region: 'eu-west-1' }), KEY_ID);

  beforeEach(() => {
    kms.reset();
    kms.on(EncryptCommand).resolves({ CiphertextBlob: BLOB, KeyId: KEY_ID });
    kms.on(DecryptCommand).resolves({ Plaintext: new TextEncoder().encode(PASSWORD), KeyId: KEY_ID });
  });

  it('encrypts with the key and the workspace and source as encryption context', async () => {
    await vault().seal(PASSWORD, CONTEXT);

    const [call] = kms.commandCalls(EncryptCommand);
    expect(call!.args[0].input).toMatchObject({ KeyId: KEY_ID, EncryptionContext: { workspace_id: 'ws-1', source_id: 'src-1' } });
    expect(new TextDecoder().decode(call!.args[0].input.Plaintext)).toBe(PASSWORD);
  });

  it('stores the ciphertext KMS returned, never the plaintext', async () => {
    const sealed = await vault().seal(PASSWORD, CONTEXT);

    expect(sealed).toBe(`kms.${Buffer.from(BLOB).toString('base64')}`);
    expect(sealed).not.toContain(PASSWORD);
  });

  it('decrypts with the same key, ciphertext and encryption context', async () => {
    const sealed = await vault().seal(PASSWORD, CONTEXT);

    const opened = await vault().open(sealed, CONTEXT);

    const [call] = kms.commandCalls(DecryptCommand);
    expect(opened).toBe(PASSWORD);
    expect(call!.args[0].input).toMatchObject({ KeyId: KEY_ID, EncryptionContext: { workspace_id: 'ws-1', source_id: 'src-1' } });
    expect(new Uint8Array(call!.args[0].input.CiphertextBlob!)).toEqual(BLOB);
  });

  it('refuses a value not sealed by KMS without calling it', async () => {
    await expect(vault().open('v1.a.b.c', CONTEXT)).rejects.toThrow('not a KMS-sealed credential');

    expect(kms.commandCalls(DecryptCommand)).toHaveLength(0);
  });
});
