import type { Clock } from '../clock';
import { notFound, validationError } from '../errors';
import { withoutControls } from '../display-text';
import { requireLabels } from '../labels/require-labels';
import type { LabelRepository } from '../labels/ports';
import { toSummary, type DocumentSummary } from './document';
import type { DocumentChanges, DocumentRepository } from './ports';

/**
 * Changes title, labels (replacing them) and metadata; labels must exist. A title is stored without controls
 * or bidirectional formatting, as filenames are. The search index and the connected clients
 * (`document_updated`) follow the change from the table's stream.
 */
export async function updateDocument(
  deps: { documents: DocumentRepository; labels: Pick<LabelRepository, 'missing'>; clock: Clock },
  id: string,
  changes: DocumentChanges,
): Promise<DocumentSummary> {
  const title = changes.title === undefined ? undefined : withoutControls(changes.title).trim();
  if (title === '') throw validationError('The title is empty', [{ field: 'title', reason: 'holds only control or formatting characters' }]);
  if (changes.labels) await requireLabels(deps.labels, changes.labels);
  const updated = await deps.documents.update(
    id,
    { ...changes, ...(title === undefined ? {} : { title }), ...(changes.labels ? { labels: [...new Set(changes.labels)] } : {}) },
    deps.clock.now().toISOString(),
  );
  if (!updated) throw notFound('Document', id);
  return toSummary(updated);
}
