import { describe, expect, it } from 'vitest';
import type { ItemChange } from '../../../../shared/domain/changes/ports';
import type { DocumentRecord } from '../../../../shared/domain/documents/document';
import type { DocumentContent } from '../../../../shared/domain/files/ports';
import { followChanges, type FollowChangesDeps } from '../../../../shared/domain/search/follow-changes';
import type { IndexedDocument, SearchIndex } from '../../../../shared/domain/search/ports';
import { REMOVED_FOREVER } from '../../../../shared/domain/search/document-indexer';
import { aDocumentRecord } from '../../../support/builders';

const at = '2026-11-26T10:00:00.000Z';
const change = (sequence: string, old: DocumentRecord | null, next: DocumentRecord | null): ItemChange => ({
  id: `event-${sequence}`,
  sequence,
  at,
  entity: 'document',
  workspaceId: 'ws-1',
  documentId: (next ?? old)!.id,
  old,
  new: next,
});

const textChange = (sequence: string, documentId: string, content: DocumentContent = { text: 'read' }): ItemChange => ({
  id: `event-${sequence}`,
  sequence,
  at,
  entity: 'document_content',
  workspaceId: 'ws-1',
  documentId,
  old: null,
  new: content,
});

/**
 * Documents held in a map (their record and text reads counted, their stored text 'stored text'), text objects in
 * a file store, and an index that records its writes and the text of each (failing for the ids given).
 */
function deps(stored: DocumentRecord[], failing: string[] = [], objects: Record<string, string> = {}) {
  const documents = new Map(stored.map((document) => [document.id, document]));
  const writes: string[] = [];
  const indexedText = new Map<string, string>();
  const recordReads: string[] = [];
  const textReads: string[] = [];
  const index: SearchIndex = {
    upsert: (document: IndexedDocument) => {
      if (failing.includes(document.id)) return Promise.reject(new Error('index unavailable'));
      writes.push(`upsert ${document.id} v${document.version}`);
      indexedText.set(document.id, document.content);
      return Promise.resolve();
    },
    remove: (id, version) => {
      writes.push(`remove ${id}${version === REMOVED_FOREVER ? ' for ever' : ''}`);
      return Promise.resolve();
    },
    search: () => Promise.reject(new Error('not searched here')),
  };
  const all: FollowChangesDeps = {
    inWorkspace: () => ({
      documents: {
        get: (id) => {
          recordReads.push(id);
          return Promise.resolve(documents.get(id) ?? null);
        },
        getContent: (id) => {
          textReads.push(id);
          return Promise.resolve({ text: 'stored text' });
        },
        list: () => Promise.reject(new Error('not listed here')),
      },
      labels: { get: () => Promise.resolve(null) },
      files: { get: (key) => Promise.resolve(key in objects ? new TextEncoder().encode(objects[key]) : null) },
      index,
    }),
  };
  return { all, writes, recordReads, textReads, indexedText };
}

describe('the indexer following a batch of changes', () => {
  it('indexes a document changed several times in a batch once, from its latest image, without reading its record', async () => {
    const current = aDocumentRecord({ id: 'doc-1', version: 3 });
    const { all, writes, recordReads } = deps([current]);

    await followChanges(all, [change('1', null, { ...current, version: 1 }), change('2', { ...current, version: 1 }, { ...current, version: 2 })]);

    expect(writes).toEqual(['upsert doc-1 v2']);
    expect(recordReads).toEqual([]);
  });

  it('takes the image of a document change over a read when its text changed in the same batch', async () => {
    const current = aDocumentRecord({ id: 'doc-1', version: 2 });
    const { all, writes, recordReads } = deps([current]);

    await followChanges(all, [textChange('1', 'doc-1'), change('2', { ...current, version: 1 }, current)]);

    expect(writes).toEqual(['upsert doc-1 v2']);
    expect(recordReads).toEqual([]);
  });

  it('reindexes a document from its current record when only its text changed in the batch', async () => {
    const current = aDocumentRecord({ id: 'doc-1', version: 4 });
    const { all, writes, recordReads } = deps([current]);

    await followChanges(all, [textChange('1', 'doc-1')]);

    expect(writes).toEqual(['upsert doc-1 v4']);
    expect(recordReads).toEqual(['doc-1']);
  });

  it('indexes a document inserted pending OCR without reading its text, which it does not have yet', async () => {
    const inserted = aDocumentRecord({ id: 'doc-1', version: 1, status: 'pending' });
    const { all, writes, textReads } = deps([inserted]);

    await followChanges(all, [change('1', null, inserted)]);

    expect(writes).toEqual(['upsert doc-1 v1']);
    expect(textReads).toEqual([]);
  });

  it('indexes a document inserted pending OCR with the text the batch also writes for it, without reading it', async () => {
    const inserted = aDocumentRecord({ id: 'doc-1', version: 1, status: 'pending' });
    const { all, textReads, indexedText } = deps([inserted]);

    await followChanges(all, [change('1', null, inserted), textChange('2', 'doc-1', { text: 'from the batch' })]);

    expect(indexedText.get('doc-1')).toBe('from the batch');
    expect(textReads).toEqual([]);
  });

  it('indexes a document changed with its text, as an OCR run completes, with the latest text the batch writes', async () => {
    const completed = aDocumentRecord({ id: 'doc-1', version: 3, status: 'completed' });
    const { all, textReads, indexedText } = deps([completed]);

    await followChanges(all, [textChange('1', 'doc-1', { text: 'first reading' }), textChange('2', 'doc-1', { text: 'second reading' }), change('3', { ...completed, version: 2 }, completed)]);

    expect(indexedText.get('doc-1')).toBe('second reading');
    expect(textReads).toEqual([]);
  });

  it('reads the object a text the batch writes is kept in, not the text item', async () => {
    const completed = aDocumentRecord({ id: 'doc-1', version: 2, status: 'completed' });
    const { all, textReads, indexedText } = deps([completed], [], { 'texts/doc-1.txt': 'a long text' });

    await followChanges(all, [textChange('1', 'doc-1', { text_object: 'texts/doc-1.txt' }), change('2', { ...completed, version: 1 }, completed)]);

    expect(indexedText.get('doc-1')).toBe('a long text');
    expect(textReads).toEqual([]);
  });

  it('reads the current text of a document changed in a batch that does not write its text', async () => {
    const edited = aDocumentRecord({ id: 'doc-1', version: 5, status: 'completed' });
    const { all, textReads, indexedText } = deps([edited]);

    await followChanges(all, [change('1', { ...edited, version: 4 }, edited)]);

    expect(indexedText.get('doc-1')).toBe('stored text');
    expect(textReads).toEqual(['doc-1']);
  });

  it('reads the text of a document inserted already completed with OCR on, as an import writes it', async () => {
    const inserted = aDocumentRecord({ id: 'doc-1', version: 1, status: 'completed', ocr_enabled: true });
    const { all, textReads } = deps([inserted]);

    await followChanges(all, [change('1', null, inserted)]);

    expect(textReads).toEqual(['doc-1']);
  });

  it('indexes a document uploaded with OCR off without reading its text, which it does not have', async () => {
    const inserted = aDocumentRecord({ id: 'doc-1', version: 1, status: 'completed', ocr_enabled: false });
    const { all, writes, textReads, indexedText } = deps([inserted]);

    await followChanges(all, [change('1', null, inserted)]);

    expect(writes).toEqual(['upsert doc-1 v1']);
    expect(indexedText.get('doc-1')).toBe('');
    expect(textReads).toEqual([]);
  });

  it('indexes a document inserted with OCR off with the text the batch wrote for it just before, as an import does', async () => {
    const inserted = aDocumentRecord({ id: 'doc-1', version: 1, status: 'completed', ocr_enabled: false });
    const { all, textReads, indexedText } = deps([inserted]);

    await followChanges(all, [textChange('1', 'doc-1', { text: 'imported words' }), change('2', null, inserted)]);

    expect(indexedText.get('doc-1')).toBe('imported words');
    expect(textReads).toEqual([]);
  });

  it('reads the text of a document with OCR off changed after its insert', async () => {
    const edited = aDocumentRecord({ id: 'doc-1', version: 2, status: 'completed', ocr_enabled: false });
    const { all, textReads } = deps([edited]);

    await followChanges(all, [change('1', { ...edited, version: 1 }, edited)]);

    expect(textReads).toEqual(['doc-1']);
  });

  it('removes for ever a document the batch deletes, without reindexing it', async () => {
    const document = aDocumentRecord({ id: 'doc-1', version: 1 });
    const { all, writes } = deps([]);

    await followChanges(all, [change('1', null, document), change('2', document, null)]);

    expect(writes).toEqual(['remove doc-1 for ever']);
  });

  it('writes nothing for a text whose document is not found: its insert, or its removal, is followed on its own', async () => {
    const { all, writes } = deps([]);

    await followChanges(all, [textChange('1', 'doc-1')]);

    expect(writes).toEqual([]);
  });

  it('reports the earliest change whose document could not be indexed, and applies the others', async () => {
    const stored = ['a', 'b', 'c'].map((id) => aDocumentRecord({ id, version: 1 }));
    const { all, writes } = deps(stored, ['b', 'c']);

    const outcome = await followChanges(all, [change('98', null, stored[0]!), change('99', null, stored[1]!), change('100', null, stored[2]!)]);

    expect(outcome).toEqual({ failedAt: '99' });
    expect(writes).toEqual(['upsert a v1']);
  });
});
