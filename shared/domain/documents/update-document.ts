import type { Clock } from '../clock';
import { notFound } from '../errors';
import { requireLabels } from '../labels/require-labels';
import type { LabelRepository } from '../labels/ports';
import { toSummary, type DocumentSummary } from './document';
import type { DocumentChanges, DocumentRepository } from './ports';

/**
 * Changes title, labels (replacing them) and metadata; labels must exist. The search index and the connected
 * clients (`document_updated`) follow the change from the table's stream.
 */
export async function updateDocument(
  deps: { documents: DocumentRepository; labels: Pick<LabelRepository, 'missing'>; clock: Clock },
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
  return toSummary(updated);
}
