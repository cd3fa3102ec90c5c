import type { Clock } from '../clock';
import type { SearchIndexer } from '../search/ports';
import { notFound } from '../errors';
import type { Principal } from '../auth/principal';
import { unknownLabelsError, type AssignmentOutcome, type Label, type LabelChanges, type LabelRepository } from './label';

/**
 * The index holds each document's labels (ids and names) at the document's version. Every label change that
 * writes documents reindexes exactly the documents it wrote, after writing them: whatever raced with it, the
 * last writer of a document reindexes its last version.
 */
export interface LabelDeps {
  labels: LabelRepository;
  clock: Clock;
  /** Documents are found by their labels' names: the index follows renames, deletes and assignments. */
  search: SearchIndexer;
}

const reindexAll = async (search: SearchIndexer, ids: string[]) => {
  for (const id of ids) await search.reindex(id);
};

export const listLabels = async (deps: Pick<LabelDeps, 'labels'>): Promise<{ labels: Label[] }> => ({
  labels: await deps.labels.list(),
});

/** Creates a label with no documents yet; a name another label has (in any case) is refused. */
export async function createLabel(
  deps: LabelDeps,
  caller: Principal,
  input: { name: string; color: string; description?: string | null | undefined },
): Promise<Label> {
  const now = deps.clock.now().toISOString();
  const label: Label = {
    id: crypto.randomUUID(),
    name: input.name,
    color: input.color.toLowerCase(),
    description: input.description ?? null,
    document_count: 0,
    created_by: caller.username,
    created_at: now,
    updated_at: now,
  };
  await deps.labels.create(label);
  return label;
}

/** Changes a label; a rename reaches the index of every document carrying it. */
export async function updateLabel(deps: LabelDeps, id: string, changes: LabelChanges): Promise<Label> {
  const normalised = changes.color ? { ...changes, color: changes.color.toLowerCase() } : changes;
  const changed = await deps.labels.update(id, normalised, deps.clock.now().toISOString());
  if (!changed) throw notFound('Label', id);
  await reindexAll(deps.search, changed.touchedDocumentIds);
  return changed.result;
}

/**
 * Deletes a label; the documents that carried it keep everything else. An edit or assignment racing the delete
 * either fails as for an unknown label or is undone by it: the delete takes the label off every document that
 * carries it once it is gone, and reindexes those.
 */
export async function deleteLabel(deps: LabelDeps, id: string): Promise<void> {
  const deleted = await deps.labels.delete(id);
  if (!deleted) throw notFound('Label', id);
  await reindexAll(deps.search, deleted.touchedDocumentIds);
}

/** Puts a label on documents and says, per document, whether it was assigned, already there or unknown. */
export async function assignLabel(deps: LabelDeps, id: string, documentIds: string[]): Promise<AssignmentOutcome> {
  const outcome = await deps.labels.assign(id, [...new Set(documentIds)], deps.clock.now().toISOString());
  if (!outcome) throw notFound('Label', id);
  await reindexAll(deps.search, outcome.assigned);
  return outcome;
}

/** Refuses label ids that name no label, listing them, before anything is written. */
export async function requireLabels(labels: Pick<LabelRepository, 'missing'>, ids: string[]): Promise<void> {
  const unknown = await labels.missing(ids);
  if (unknown.length) throw unknownLabelsError(unknown);
}
