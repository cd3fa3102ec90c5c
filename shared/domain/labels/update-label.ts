import { notFound } from '../errors';
import type { Label, LabelChanges } from './label';
import type { LabelDeps } from './ports';

/** Changes a label; a rename reaches the index of every document carrying it. */
export async function updateLabel(deps: LabelDeps, id: string, changes: LabelChanges): Promise<Label> {
  const normalised = changes.color ? { ...changes, color: changes.color.toLowerCase() } : changes;
  const changed = await deps.labels.update(id, normalised, deps.clock.now().toISOString());
  if (!changed) throw notFound('Label', id);
  return changed;
}
