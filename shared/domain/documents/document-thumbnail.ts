import { notFound } from '../errors';
import { fileKeys } from './document';
import { detectMimeType } from './file-type';
import type { DocumentRepository, FileStore } from './ports';
import type { ThumbnailRenderer } from './thumbnails';

export interface ThumbnailImage {
  bytes: Uint8Array;
  mimeType: string;
}

/** The first page as an image that fits width x height, rendered once per size and then served from storage. */
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
  const original = await deps.files.get(fileKeys.original(id));
  if (!original) throw notFound('Document file', id);
  const thumbnail = await deps.thumbnails.render(original, record.mime_type, box);
  await deps.files.put(cacheKey, thumbnail.bytes, thumbnail.mimeType);
  return { bytes: thumbnail.bytes, mimeType: thumbnail.mimeType };
}
