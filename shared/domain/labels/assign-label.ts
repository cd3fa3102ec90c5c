import { notFound } from '../errors';
import type { AssignmentOutcome } from './label';
import type { LabelDeps } from './ports';

/** Puts a label on documents and says, per document, whether it was assigned, already there or unknown. */
export async function assignLabel(deps: LabelDeps, id: string, documentIds: string[]): Promise<AssignmentOutcome> {
  const outcome = await deps.labels.assign(id, [...new Set(documentIds)], deps.clock.now().toISOString());
  if (!outcome) throw notFound('Label', id);
  return outcome;
}
