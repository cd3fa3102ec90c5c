import { DecryptCommand, EncryptCommand, type KMSClient } from '@aws-sdk/client-kms';
import type { CredentialVault } from '../../../domain/sources/ports';

/**
 * Seals source passwords with a KMS key (a password is far below KMS's 4 KB): the ciphertext is stored in the
 * table, and the workspace and source ids are the encryption context, so a value moved to another source does
 * not decrypt, and CloudTrail names the source of every decrypt.
 */
export class KmsCredentialVault implements CredentialVault {
  constructor(
    private readonly kms: () => KMSClient,
    private readonly keyId: string,
  ) {}

  async seal(plaintext: string, context: { workspaceId: string; sourceId: string }): Promise<string> {
    const { CiphertextBlob } = await this.kms().send(
      new EncryptCommand({ KeyId: this.keyId, Plaintext: new TextEncoder().encode(plaintext), EncryptionContext: encryptionContext(context) }),
    );
    if (!CiphertextBlob) throw new Error('KMS returned no ciphertext');
    return `kms.${Buffer.from(CiphertextBlob).toString('base64')}`;
  }

  async open(sealed: string, context: { workspaceId: string; sourceId: string }): Promise<string> {
    if (!sealed.startsWith('kms.')) throw new Error('not a KMS-sealed credential');
    const { Plaintext } = await this.kms().send(
      new DecryptCommand({ KeyId: this.keyId, CiphertextBlob: Buffer.from(sealed.slice(4), 'base64'), EncryptionContext: encryptionContext(context) }),
    );
    if (!Plaintext) throw new Error('KMS returned no plaintext');
    return new TextDecoder().decode(Plaintext);
  }
}

const encryptionContext = ({ workspaceId, sourceId }: { workspaceId: string; sourceId: string }) => ({ workspace_id: workspaceId, source_id: sourceId });
