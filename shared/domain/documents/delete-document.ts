import { notFound } from '../errors';
import { fileKeys } from '../files/file-keys';
import type { DocumentRepository } from './ports';
import type { FileStore } from '../files/ports';

/** Deletes the document, its files (original and thumbnails) and its place in label counts; the index follows the stream. */
export async function deleteDocument(deps: { documents: DocumentRepository; files: FileStore }, id: string): Promise<void> {
  if (!(await deps.documents.delete(id))) throw notFound('Document', id);
  await deps.files.deletePrefix(fileKeys.prefix(id));
}
