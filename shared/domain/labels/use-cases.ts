import type { Clock } from '../clock';
import type { DocumentRepository } from '../documents/ports';
import type { SearchIndexer } from '../search/ports';
import { AppError, notFound } from '../errors';
import type { Principal } from '../auth/principal';
import type { AssignmentOutcome, Label, LabelChanges, LabelRepository } from './label';

export interface LabelDeps {
  labels: LabelRepository;
  clock: Clock;
  /** Documents find by their labels' names: the index follows renames, deletes and assignments. */
  search: SearchIndexer;
  documents: Pick<DocumentRepository, 'list'>;
}

/** Ids of the documents carrying a label, page by page. */
async function documentsWithLabel(deps: Pick<LabelDeps, 'documents'>, labelId: string): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const batch = await deps.documents.list({ page, perPage: 100, sort: 'created_at', order: 'asc', labelIds: [labelId] });
    ids.push(...batch.data.map((document) => document.id));
    if (!batch.pagination.has_next) return ids;
  }
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

export async function updateLabel(deps: LabelDeps, id: string, changes: LabelChanges): Promise<Label> {
  const normalised = changes.color ? { ...changes, color: changes.color.toLowerCase() } : changes;
  const label = await deps.labels.update(id, normalised, deps.clock.now().toISOString());
  if (!label) throw notFound('Label', id);
  if (changes.name !== undefined) await reindexAll(deps.search, await documentsWithLabel(deps, id));
  return label;
}

/** Deletes a label; the documents that carried it keep everything else. */
export async function deleteLabel(deps: LabelDeps, id: string): Promise<void> {
  const carriers = await documentsWithLabel(deps, id);
  if (!(await deps.labels.delete(id))) throw notFound('Label', id);
  await reindexAll(deps.search, carriers);
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
  if (unknown.length) {
    throw new AppError('VALIDATION_ERROR', 'Some labels do not exist', {
      field: 'labels',
      reason: 'unknown label ids',
      unknown_label_ids: unknown,
    });
  }
}
