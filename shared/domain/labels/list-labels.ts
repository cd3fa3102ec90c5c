import type { Label } from './label';
import type { LabelDeps } from './ports';

export const listLabels = async (deps: Pick<LabelDeps, 'labels'>): Promise<{ labels: Label[] }> => ({
  labels: await deps.labels.list(),
});
