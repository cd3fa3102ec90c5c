import { unknownLabelsError } from './label';
import type { LabelRepository } from './ports';

/** Refuses label ids that name no label, listing them, before anything is written. */
export async function requireLabels(labels: Pick<LabelRepository, 'missing'>, ids: string[]): Promise<void> {
  const unknown = await labels.missing(ids);
  if (unknown.length) throw unknownLabelsError(unknown);
}
