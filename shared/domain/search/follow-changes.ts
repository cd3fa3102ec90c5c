import { compareSequences, type ChangeOutcome, type ItemChange } from '../changes/ports';
import type { DocumentRepository } from '../documents/ports';
import { createDocumentIndexer, type IndexerDeps } from './use-cases';

/** How many documents are reindexed at once within a batch. */
const CONCURRENCY = 8;
/** Page size when the documents carrying a label are listed. */
const LABEL_PAGE = 100;

export interface FollowChangesDeps {
  /** One workspace's documents, labels, files and index view (what `createDocumentIndexer` reads). */
  inWorkspace(workspaceId: string): IndexerDeps & { documents: Pick<DocumentRepository, 'get' | 'getContent' | 'list'> };
}

/**
 * What the index must do for one workspace's document or label, and the first change that asked for it.
 * `rank` decides between two plans for the same key in a batch: a removal (3) over the document's latest image
 * in the batch (2, the later image winning; its text is read when the plan runs, after every change of the
 * batch was written) over a read of the current state (1, when only the document's text changed).
 */
interface Work {
  workspaceId: string;
  first: ItemChange;
  rank: 1 | 2 | 3;
  run: () => Promise<void>;
}

/**
 * Keeps the search index in step with a batch of table changes (the `indexer` stream consumer):
 * - a document inserted or modified is indexed from the change's new image (its text and label names read as
 *   they are now; a document inserted pending OCR in the batch has no text to read), so the index takes each
 *   version in turn and keeps the newest whatever order or how often changes arrive;
 * - a document's text written alone in a batch reindexes it from its current state (a document found gone is
 *   removed); with a change of the document in the same batch, that change's image serves;
 * - a document removed is removed for ever (a tombstone no later upsert passes), so a document deleted while
 *   its OCR completes never comes back, whichever of the two changes is applied last;
 * - a label renamed or deleted reindexes every document its memberships still name. The label repository
 *   also moves each carrier's version (their document changes follow), so this is the repair for a rename or
 *   delete whose walk over the carriers was cut short.
 * Changes of one document in a batch make one write (see {@link Work}). Applying a change twice has one
 * effect. Returns the sequence of the earliest change whose work failed (the batch is retried from it).
 */
export async function followChanges(deps: FollowChangesDeps, changes: ItemChange[]): Promise<ChangeOutcome> {
  const work = new Map<string, Work>();
  const textless = textlessDocuments(changes);
  for (const change of changes) {
    const planned = plan(deps, change, textless);
    if (!planned) continue;
    const existing = work.get(planned.key);
    if (!existing || planned.rank >= existing.rank) work.set(planned.key, { ...planned, first: existing?.first ?? change });
  }
  const failed: string[] = [];
  const queue = [...work.values()];
  const runNext = async (): Promise<void> => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      try {
        await next.run();
      } catch {
        failed.push(next.first.sequence);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, runNext));
  return failed.length ? { failedAt: failed.sort(compareSequences)[0]! } : {};
}

/**
 * Documents inserted in the batch pending OCR whose text the batch does not write: they have none (their text
 * comes with the OCR run's completion, a later change with a newer version), so it is not read.
 */
function textlessDocuments(changes: ItemChange[]): Set<string> {
  const inserted = new Set<string>();
  const written = new Set<string>();
  for (const change of changes) {
    if (change.entity === 'document' && change.old === null && change.new?.status === 'pending') inserted.add(`${change.workspaceId}/${change.documentId}`);
    if (change.entity === 'document_content' && change.new !== null) written.add(`${change.workspaceId}/${change.documentId}`);
  }
  return new Set([...inserted].filter((key) => !written.has(key)));
}

function plan(deps: FollowChangesDeps, change: ItemChange, textless: Set<string>): (Omit<Work, 'first'> & { key: string }) | null {
  switch (change.entity) {
    case 'document':
    case 'document_content': {
      const { workspaceId, documentId } = change;
      const key = `${workspaceId}/doc/${documentId}`;
      const indexer = () => createDocumentIndexer(deps.inWorkspace(workspaceId));
      if (change.entity === 'document') {
        const record = change.new;
        if (record === null) return { key, workspaceId, rank: 3, run: () => indexer().remove(documentId) };
        const knownText = textless.has(`${workspaceId}/${documentId}`) ? '' : undefined;
        return { key, workspaceId, rank: 2, run: () => indexer().index(record, knownText) };
      }
      // A text removed goes with its document, whose own removal the index follows.
      if (change.new === null) return null;
      return { key, workspaceId, rank: 1, run: () => indexer().reindex(documentId) };
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

/** Reindexes every document the label's memberships name (each reads its current labels and their names). */
async function reindexCarriers(deps: FollowChangesDeps, workspaceId: string, labelId: string): Promise<void> {
  const scoped = deps.inWorkspace(workspaceId);
  const indexer = createDocumentIndexer(scoped);
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const listed = await scoped.documents.list({ page, perPage: LABEL_PAGE, sort: 'created_at', order: 'asc', labelIds: [labelId] });
    ids.push(...listed.data.map((document) => document.id));
    if (listed.data.length < LABEL_PAGE) break;
  }
  for (let start = 0; start < ids.length; start += CONCURRENCY) {
    await Promise.all(ids.slice(start, start + CONCURRENCY).map((id) => indexer.reindex(id)));
  }
}
