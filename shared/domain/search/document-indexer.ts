import type { DocumentRecord } from '../documents/document';
import type { DocumentRepository } from '../documents/ports';
import type { DocumentContent, FileStore } from '../files/ports';
import type { LabelRepository } from '../labels/ports';
import type { IndexedDocument, SearchIndex, SearchIndexer } from './ports';

/**
 * The version a removal is recorded with. Document ids are never reused, so a deleted document stays deleted
 * whatever version a late update carries.
 */
export const REMOVED_FOREVER = Number.MAX_SAFE_INTEGER - 1;

export interface IndexerDeps {
  documents: Pick<DocumentRepository, 'get' | 'getContent'>;
  labels: Pick<LabelRepository, 'get'>;
  files: Pick<FileStore, 'get'>;
  index: SearchIndex;
}

const decoder = new TextDecoder();

async function extractedText(deps: IndexerDeps, id: string, known?: DocumentContent): Promise<string> {
  const content = known ?? (await deps.documents.getContent(id));
  if ('text' in content) return content.text;
  const bytes = await deps.files.get(content.text_object);
  return bytes ? decoder.decode(bytes) : '';
}

/** What the index holds of a document: its record, its text (read, unless the caller knows it) and its labels' current names. */
export async function toIndexedDocument(deps: IndexerDeps, record: DocumentRecord, knownContent?: DocumentContent): Promise<IndexedDocument> {
  const [content, labels] = await Promise.all([
    extractedText(deps, record.id, knownContent),
    Promise.all(record.labels.map(async (id) => ({ id, name: (await deps.labels.get(id))?.name ?? '' }))),
  ]);
  return {
    id: record.id,
    version: record.version ?? 1,
    title: record.title,
    filename: record.filename,
    content,
    mime_type: record.mime_type,
    status: record.status,
    labels,
    metadata: record.metadata,
    ocr_confidence: record.ocr_confidence,
    size: record.size,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

/**
 * The SearchIndexer of a runtime with a search index. `reindex` reads the document as it is now (strongly
 * consistent: the record first, then its text and its labels' names) and upserts it with the record's version;
 * `index` takes the record from a change's image and reads only the text and the label names. Calls may come
 * twice or out of order: the index keeps the newest version. Every change of what the index holds of a
 * document moves its version (edits, OCR, label assigns and deletes, and label renames, which move the version
 * of each carrier), and each of those changes is followed in turn: the last one's write carries the last
 * version, and no copy read earlier can replace it. A document that no longer exists is removed. `remove`
 * leaves a tombstone that no later upsert overrides.
 */
export function createDocumentIndexer(deps: IndexerDeps): SearchIndexer {
  return {
    reindex: async (documentId) => {
      const record = await deps.documents.get(documentId);
      if (!record) {
        await deps.index.remove(documentId, REMOVED_FOREVER);
        return;
      }
      await deps.index.upsert(await toIndexedDocument(deps, record));
    },
    index: async (record, knownContent) => deps.index.upsert(await toIndexedDocument(deps, record, knownContent)),
    remove: (documentId) => deps.index.remove(documentId, REMOVED_FOREVER),
  };
}
