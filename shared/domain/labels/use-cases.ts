import type { Clock } from '../clock';
import { AppError, notFound } from '../errors';
import type { Principal } from '../auth/principal';
import type { AssignmentOutcome, Label, LabelChanges, LabelRepository } from './label';

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

export async function updateLabel(deps: LabelDeps, id: string, changes: LabelChanges): Promise<Label> {
  const normalised = changes.color ? { ...changes, color: changes.color.toLowerCase() } : changes;
  const label = await deps.labels.update(id, normalised, deps.clock.now().toISOString());
  if (!label) throw notFound('Label', id);
  return label;
}

/** Deletes a label; the documents that carried it keep everything else. */
export async function deleteLabel(deps: Pick<LabelDeps, 'labels'>, id: string): Promise<void> {
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
  if (unknown.length) {
    throw new AppError('VALIDATION_ERROR', 'Some labels do not exist', {
      field: 'labels',
      reason: 'unknown label ids',
      unknown_label_ids: unknown,
    });
  }
}
