import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { CredentialVault } from '../../domain/sources/ports';

const VERSION = 'v1';

/**
 * Seals source passwords with AES-256-GCM under a key kept in DATA_DIR (the local runtime's stand-in for KMS).
 * The workspace and source ids are the additional data: a sealed value copied to another source does not open.
 * Format: `v1.<iv>.<tag>.<ciphertext>`, base64url.
 */
export class AesGcmCredentialVault implements CredentialVault {
  constructor(private readonly key: Uint8Array) {
    if (key.byteLength !== 32) throw new Error('the source credentials key must be 32 bytes');
  }

  async seal(plaintext: string, context: { workspaceId: string; sourceId: string }): Promise<string> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(aad(context));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
  }

  async open(sealed: string, context: { workspaceId: string; sourceId: string }): Promise<string> {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error('not a sealed credential');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(aad(context));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}

const aad = ({ workspaceId, sourceId }: { workspaceId: string; sourceId: string }) => Buffer.from(`${workspaceId}/${sourceId}`, 'utf8');
