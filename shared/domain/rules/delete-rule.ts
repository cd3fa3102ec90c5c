import { notFound } from '../errors';
import type { RuleRepository } from './ports';

/** Deletes a rule; the labels it added stay on their documents. A run over existing documents stops at its next step. */
export async function deleteRule(deps: { rules: Pick<RuleRepository, 'delete'> }, id: string): Promise<void> {
  if (!(await deps.rules.delete(id))) throw notFound('Rule', id);
}
