import { notFound } from '../errors';
import type { LabelDeps } from './ports';

/**
 * Deletes a label; the documents that carried it keep everything else. An edit or assignment racing the delete
 * either fails as for an unknown label or is undone by it: the delete takes the label off every document that
 * carries it once it is gone.
 */
export async function deleteLabel(deps: LabelDeps, id: string): Promise<void> {
  if (!(await deps.labels.delete(id))) throw notFound('Label', id);
}
