import { SqliteSearchIndex } from '../../../../shared/adapters/local/sqlite-search-index';
import type { DocumentRecord } from '../../../../shared/domain/documents/document';
import type { IndexedDocument } from '../../../../shared/domain/search/ports';
import { aDocumentRecord } from '../../../support/builders';

/** The local search index (SQLite FTS5) in memory. */
export const memoryIndex = () => new SqliteSearchIndex(':memory:');

/** What the index holds of a completed document with `text`; `record` overrides its fields. */
export function anIndexedDocument(text: string, record: Partial<DocumentRecord> = {}, labels: IndexedDocument['labels'] = []): IndexedDocument {
  const document = aDocumentRecord({ status: 'completed', ...record });
  return {
    id: document.id,
    version: 1,
    title: document.title,
    filename: document.filename,
    content: text,
    mime_type: document.mime_type,
    status: document.status,
    labels,
    metadata: document.metadata,
    ocr_confidence: 0.9,
    size: document.size,
    created_at: document.created_at,
    updated_at: document.updated_at,
  };
}
