import { createHash } from 'node:crypto';
import type { OcrInput } from '../../shared/domain/ocr/ports';

/** The file part of an {@link OcrInput} for bytes held in memory, as the worker would describe a stored file. */
export const fileInput = (bytes: Uint8Array): Pick<OcrInput, 'size' | 'sha256' | 'readBytes'> => ({
  size: bytes.byteLength,
  sha256: createHash('sha256').update(bytes).digest('hex'),
  readBytes: () => Promise.resolve(bytes),
});
