import { createHash } from 'node:crypto';

/** Hex SHA-256 of a file's bytes, stored with each document. */
export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
