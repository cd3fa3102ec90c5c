import { describe, expect, it } from 'vitest';
import type { ItemChange } from '../../../shared/domain/changes/ports';
import type { DocumentRecord } from '../../../shared/domain/documents/document';
import { followChanges, type FollowChangesDeps } from '../../../shared/domain/search/follow-changes';
import type { IndexedDocument, SearchIndex } from '../../../shared/domain/search/ports';
import { REMOVED_FOREVER } from '../../../shared/domain/search/use-cases';
import { aDocumentRecord } from '../../support/builders';

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

const textChange = (sequence: string, documentId: string): ItemChange => ({
  id: `event-${sequence}`,
  sequence,
  at,
  entity: 'document_content',
  workspaceId: 'ws-1',
  documentId,
  old: null,
  new: { text: 'read' },
});

/** Documents held in a map (their record reads counted), and an index that records its writes (failing for the ids given). */
function deps(stored: DocumentRecord[], failing: string[] = []) {
  const documents = new Map(stored.map((document) => [document.id, document]));
  const writes: string[] = [];
  const recordReads: string[] = [];
  const textReads: string[] = [];
  const index: SearchIndex = {
    upsert: (document: IndexedDocument) => {
      if (failing.includes(document.id)) return Promise.reject(new Error('index unavailable'));
      writes.push(`upsert ${document.id} v${document.version}`);
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
          return Promise.resolve({ text: '' });
        },
        list: () => Promise.reject(new Error('not listed here')),
      },
      labels: { get: () => Promise.resolve(null) },
      files: { get: () => Promise.resolve(null) },
      index,
    }),
  };
  return { all, writes, recordReads, textReads };
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

  it('reads the text of a document inserted pending OCR when the batch also writes its text', async () => {
    const inserted = aDocumentRecord({ id: 'doc-1', version: 1, status: 'pending' });
    const { all, textReads } = deps([inserted]);

    await followChanges(all, [change('1', null, inserted), textChange('2', 'doc-1')]);

    expect(textReads).toEqual(['doc-1']);
  });

  it('reads the text of a document inserted already completed', async () => {
    const inserted = aDocumentRecord({ id: 'doc-1', version: 1, status: 'completed' });
    const { all, textReads } = deps([inserted]);

    await followChanges(all, [change('1', null, inserted)]);

    expect(textReads).toEqual(['doc-1']);
  });

  it('removes for ever a document the batch deletes, without reindexing it', async () => {
    const document = aDocumentRecord({ id: 'doc-1', version: 1 });
    const { all, writes } = deps([]);

    await followChanges(all, [change('1', null, document), change('2', document, null)]);

    expect(writes).toEqual(['remove doc-1 for ever']);
  });

  it('removes a document that is gone when only its text changed in the batch', async () => {
    const { all, writes } = deps([]);

    await followChanges(all, [textChange('1', 'doc-1')]);

    expect(writes).toEqual(['remove doc-1 for ever']);
  });

  it('reports the earliest change whose document could not be indexed, and applies the others', async () => {
    const stored = ['a', 'b', 'c'].map((id) => aDocumentRecord({ id, version: 1 }));
    const { all, writes } = deps(stored, ['b', 'c']);

    const outcome = await followChanges(all, [change('98', null, stored[0]!), change('99', null, stored[1]!), change('100', null, stored[2]!)]);

    expect(outcome).toEqual({ failedAt: '99' });
    expect(writes).toEqual(['upsert a v1']);
  });
});
