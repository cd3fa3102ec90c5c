import { AppError, notFound } from '../errors';
import { fileKeys } from '../files/file-keys';
import { detectMimeType } from './file-type';
import type { DocumentRepository } from './ports';
import type { FileStore } from '../files/ports';
import type { ThumbnailRenderer } from './thumbnails';

export interface ThumbnailImage {
  bytes: Uint8Array;
  mimeType: string;
}

/**
 * Beside the thumbnails of a file that cannot be rendered: the refusal (message and details), so that every
 * later size, on any instance and after a restart, is refused at once instead of rendering a hostile file again.
 * The original never changes, so neither does the verdict; deleting the document deletes it with the rest.
 */
const refusalKey = (id: string): string => `${fileKeys.prefix(id)}thumbnails/refused`;

/** The renderer refused the file itself (as opposed to the box, or capacity). */
const isFileRefusal = (error: unknown): error is AppError =>
  error instanceof AppError && error.code === 'VALIDATION_ERROR' && error.details['field'] === 'file';

const rememberedRefusal = (stored: Uint8Array): AppError => {
  const { message, details } = JSON.parse(new TextDecoder().decode(stored)) as { message: string; details: Record<string, unknown> };
  return new AppError('VALIDATION_ERROR', message, details);
};

/**
 * The first page as an image that fits width x height, rendered once per size and then served from storage.
 * A file refused once (corrupt, hostile, too slow to render) is refused at once for every size afterwards
 * (VALIDATION_ERROR on field `file`); SERVICE_UNAVAILABLE from the renderer (no capacity) is not remembered.
 */
export async function documentThumbnail(
  deps: { documents: DocumentRepository; files: FileStore; thumbnails: ThumbnailRenderer },
  id: string,
  box: { width: number; height: number },
): Promise<ThumbnailImage> {
  const record = await deps.documents.get(id);
  if (!record) throw notFound('Document', id);
  const cacheKey = fileKeys.thumbnail(id, box.width, box.height);
  const cached = await deps.files.get(cacheKey);
  if (cached) return { bytes: cached, mimeType: detectMimeType(cached) ?? 'image/png' };
  const [refusal, original] = await Promise.all([deps.files.get(refusalKey(id)), deps.files.get(fileKeys.original(id))]);
  if (refusal) throw rememberedRefusal(refusal);
  if (!original) throw notFound('Document file', id);
  try {
    const thumbnail = await deps.thumbnails.render(original, record.mime_type, box, { fileKey: `${id}:${record.sha256}` });
    await deps.files.put(cacheKey, thumbnail.bytes, thumbnail.mimeType);
    return { bytes: thumbnail.bytes, mimeType: thumbnail.mimeType };
  } catch (error) {
    if (isFileRefusal(error)) {
      const stored = new TextEncoder().encode(JSON.stringify({ message: error.message, details: error.details }));
      // Remembering is an optimisation: the refusal stands even if the marker cannot be written.
      await deps.files.put(refusalKey(id), stored, 'application/json').catch(() => undefined);
    }
    throw error;
  }
}
