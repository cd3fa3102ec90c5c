import type { Clock } from '../clock';
import { notFound } from '../errors';
import { emit, type EventPublisher } from '../events/ports';
import { requireLabels } from '../labels/use-cases';
import type { LabelRepository } from '../labels/label';
import type { SearchIndexer } from '../search/ports';
import { fileKeys, toSummary, type DocumentSummary } from './document';
import type { DocumentChanges, DocumentRepository, FileStore } from './ports';

/**
 * Changes title, labels (replacing them) and metadata; labels must exist. Every connected client hears of the
 * change: `changes` holds each field the request set, with its value as stored.
 */
export async function updateDocument(
  deps: { documents: DocumentRepository; labels: Pick<LabelRepository, 'missing'>; clock: Clock; events: EventPublisher; search: SearchIndexer },
  id: string,
  changes: DocumentChanges,
): Promise<DocumentSummary> {
  if (changes.labels) await requireLabels(deps.labels, changes.labels);
  const updated = await deps.documents.update(
    id,
    { ...changes, ...(changes.labels ? { labels: [...new Set(changes.labels)] } : {}) },
    deps.clock.now().toISOString(),
  );
  if (!updated) throw notFound('Document', id);
  await deps.search.reindex(id);
  const fields = (['title', 'labels', 'metadata'] as const).filter((field) => changes[field] !== undefined);
  await emit(
    deps.events,
    { type: 'document_updated', data: { document_id: id, changes: Object.fromEntries(fields.map((field) => [field, updated[field]])) } },
    'workspace',
  );
  return toSummary(updated);
}

/** Deletes the document, its files (original and thumbnails) and its place in label counts. */
export async function deleteDocument(deps: { documents: DocumentRepository; files: FileStore; search: SearchIndexer }, id: string): Promise<void> {
  if (!(await deps.documents.delete(id))) throw notFound('Document', id);
  await deps.search.remove(id);
  await deps.files.deletePrefix(fileKeys.prefix(id));
}
