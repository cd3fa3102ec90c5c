import { compareSequences, type ChangeOutcome, type ItemChange } from '../changes/ports';
import type { DocumentContent } from '../files/ports';
import { batchScope, READ_CONCURRENCY, type BatchScope, type FollowedWorkspace } from './batch-scope';
import { createDocumentIndexer } from './document-indexer';

/** Page size when the documents carrying a label are listed. */
const LABEL_PAGE = 100;

export interface FollowChangesDeps {
  /** One workspace's documents, labels, files and index view (what `createDocumentIndexer` reads). */
  inWorkspace(workspaceId: string): FollowedWorkspace;
  /**
   * Whether the workspace's deletion was requested: its changes are not followed (its erasure removes its part of
   * the index, and a removal followed after that would leave a tombstone naming it).
   */
  erased?(workspaceId: string): Promise<boolean>;
}

/**
 * What the index must do for one workspace's document or label, and the first change that asked for it.
 * `rank` decides between two plans for the same key in a batch: a removal (3) over the document's latest image
 * in the batch (2, the later image winning) over a read of the current state (1, when only the document's text
 * changed).
 */
interface Work {
  workspaceId: string;
  first: ItemChange;
  rank: 1 | 2 | 3;
  run: () => Promise<void>;
}

/**
 * Keeps the search index in step with a batch of table changes (the `indexer` stream consumer):
 * - a document inserted or modified is indexed from the change's new image, so the index takes each version in
 *   turn and keeps the newest whatever order or how often changes arrive. Its text is the batch's latest image
 *   of it when the batch wrote it, or known empty (see {@link textsOf}), else read as it is now; its label names
 *   are read (once per batch and label, see batchScope);
 * - a document's text written alone in a batch reindexes it from its current state (nothing for a document not
 *   found, see reindexIfPresent); with a change of the document in the same batch, that change's image serves;
 * - a document removed is removed for ever (a tombstone no later upsert passes), so a document deleted while
 *   its OCR completes never comes back, whichever of the two changes is applied last;
 * - a label renamed or deleted reindexes every document its memberships still name. The label repository
 *   also moves each carrier's version (their document changes follow), so this is the repair for a rename or
 *   delete whose walk over the carriers was cut short.
 * Changes of one document in a batch make one write (see {@link Work}); the documents of a batch are worked on
 * together, their reads bounded and shared and the workspace's erasure read beside them (see batchScope).
 * Applying a change twice has one effect. Returns the sequence of the earliest change whose work failed (the
 * batch is retried from it).
 */
export async function followChanges(deps: FollowChangesDeps, changes: ItemChange[]): Promise<ChangeOutcome> {
  const batch = batchScope(deps);
  const work = new Map<string, Work>();
  const texts = textsOf(changes);
  for (const change of changes) {
    const planned = plan(batch, change, texts);
    if (!planned) continue;
    // Read now, beside the documents' reads: each write of the workspace waits for it (see batchScope).
    void batch.erased(planned.workspaceId).catch(() => undefined);
    const existing = work.get(planned.key);
    if (!existing || planned.rank >= existing.rank) work.set(planned.key, { ...planned, first: existing?.first ?? change });
  }
  const failed: string[] = [];
  await Promise.all(
    [...work.values()].map(async (next) => {
      try {
        await next.run();
      } catch {
        // A workspace whose deletion was requested is not followed: what failed there needs no retry.
        if (!(await batch.erased(next.workspaceId).catch(() => false))) failed.push(next.first.sequence);
      }
    }),
  );
  return failed.length ? { failedAt: failed.sort(compareSequences)[0]! } : {};
}

/**
 * The text of each document the batch knows without a read, by `<workspace>/<document>`:
 * - the latest image of its text the batch writes. The text is written in the transaction that moves the
 *   document's version (an OCR run's completion), so it goes with the document's latest image in the batch; if
 *   a batch ends between the two records of one transaction, the text's own change in the next batch reindexes
 *   the document at the same version, which the index takes (it keeps versions equal or newer);
 * - none for a document inserted pending OCR whose text the batch does not write: its text comes with the OCR
 *   run's completion, a later change with a newer version;
 * - none for a document inserted with OCR off whose text the batch does not write: an upload with OCR off has
 *   no text. Only an import gives such a document one, and it writes the text just before the record, so
 *   the text's change comes first in the stream and, in the same batch, serves (an insert never replaces a
 *   text the batch wrote).
 */
function textsOf(changes: ItemChange[]): Map<string, DocumentContent> {
  const texts = new Map<string, DocumentContent>();
  for (const change of changes) {
    if (change.entity === 'document' && change.old === null && change.new && !texts.has(documentKey(change))) {
      if (change.new.status === 'pending' || !change.new.ocr_enabled) texts.set(documentKey(change), { text: '' });
    }
    if (change.entity === 'document_content' && change.new !== null) texts.set(documentKey(change), change.new);
  }
  return texts;
}

const documentKey = (change: { workspaceId: string; documentId: string }): string => `${change.workspaceId}/${change.documentId}`;

function plan(deps: BatchScope, change: ItemChange, texts: Map<string, DocumentContent>): (Omit<Work, 'first'> & { key: string }) | null {
  switch (change.entity) {
    case 'document':
    case 'document_content': {
      const { workspaceId, documentId } = change;
      const key = `${workspaceId}/doc/${documentId}`;
      const indexer = () => createDocumentIndexer(deps.inWorkspace(workspaceId));
      if (change.entity === 'document') {
        const record = change.new;
        if (record === null) return { key, workspaceId, rank: 3, run: () => indexer().remove(documentId) };
        return { key, workspaceId, rank: 2, run: () => indexer().index(record, texts.get(documentKey(change))) };
      }
      // A text removed goes with its document, whose own removal the index follows.
      if (change.new === null) return null;
      return { key, workspaceId, rank: 1, run: () => reindexIfPresent(deps, workspaceId, documentId) };
    }
    case 'label': {
      const renamed = change.old !== null && (change.new === null || change.new.name !== change.old.name);
      if (!renamed) return null;
      const { workspaceId, labelId } = change;
      return { key: `${workspaceId}/label/${labelId}`, workspaceId, rank: 2, run: () => reindexCarriers(deps, workspaceId, labelId) };
    }
    default:
      return null;
  }
}

/**
 * Reindexes a document whose text was written, from its current record, if it has one. A text may be written
 * before its document exists (an import writes the text first), and the document's insert, followed in turn,
 * reads it; a document deleted is removed by its own change.
 */
async function reindexIfPresent(deps: BatchScope, workspaceId: string, documentId: string): Promise<void> {
  const scoped = deps.inWorkspace(workspaceId);
  const record = await scoped.documents.get(documentId);
  if (record) await createDocumentIndexer(scoped).index(record);
}

/** Reindexes every document the label's memberships name (each reads its current labels and their names). */
async function reindexCarriers(deps: BatchScope, workspaceId: string, labelId: string): Promise<void> {
  const scoped = deps.inWorkspace(workspaceId);
  const indexer = createDocumentIndexer(scoped);
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const listed = await scoped.documents.list({ page, perPage: LABEL_PAGE, sort: 'created_at', order: 'asc', labelIds: [labelId] });
    ids.push(...listed.data.map((document) => document.id));
    if (listed.data.length < LABEL_PAGE) break;
  }
  for (let start = 0; start < ids.length; start += READ_CONCURRENCY) {
    await Promise.all(ids.slice(start, start + READ_CONCURRENCY).map((id) => indexer.reindex(id)));
  }
}
