import type { Clock } from '../clock';
import { notFound } from '../errors';
import type { Principal } from '../principal';
import { unknownLabelsError, type AssignmentOutcome, type Label, type LabelChanges, type LabelRepository } from './label';

/**
 * Documents are found by their labels' names. Every label change that touches documents (rename, delete,
 * assignment) moves the version of each document it wrote, and the search index follows those documents'
 * changes on the table's stream.
 */
export interface LabelDeps {
  labels: LabelRepository;
  clock: Clock;
}

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
  return changed;
}

/**
 * Deletes a label; the documents that carried it keep everything else. An edit or assignment racing the delete
 * either fails as for an unknown label or is undone by it: the delete takes the label off every document that
 * carries it once it is gone.
 */
export async function deleteLabel(deps: LabelDeps, id: string): Promise<void> {
  if (!(await deps.labels.delete(id))) throw notFound('Label', id);
}

/** Puts a label on documents and says, per document, whether it was assigned, already there or unknown. */
export async function assignLabel(deps: LabelDeps, id: string, documentIds: string[]): Promise<AssignmentOutcome> {
  const outcome = await deps.labels.assign(id, [...new Set(documentIds)], deps.clock.now().toISOString());
  if (!outcome) throw notFound('Label', id);
  return outcome;
}

/** Refuses label ids that name no label, listing them, before anything is written. */
export async function requireLabels(labels: Pick<LabelRepository, 'missing'>, ids: string[]): Promise<void> {
  const unknown = await labels.missing(ids);
  if (unknown.length) throw unknownLabelsError(unknown);
}
