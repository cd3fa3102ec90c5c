import { notFound } from '../errors';
import type { RuleDeps } from './ports';
import type { Rule, RuleMatch, RuleWhen } from './rule';
import { requireRuleLabels, requireValidPattern } from './rule-input';

export interface RuleEdit {
  name?: string | undefined;
  match?: RuleMatch | undefined;
  when?: RuleWhen | undefined;
  addLabels?: string[] | undefined;
  order?: number | undefined;
}

/** Changes a rule; a new pattern and new labels are checked as at creation. */
export async function updateRule(deps: RuleDeps, id: string, edit: RuleEdit): Promise<Rule> {
  if (edit.match) await requireValidPattern(deps, edit.match);
  if (edit.addLabels) await requireRuleLabels(deps, edit.addLabels);
  const updated = await deps.rules.update(
    id,
    { name: edit.name, match: edit.match, when: edit.when, add_labels: edit.addLabels && [...new Set(edit.addLabels)], order: edit.order },
    deps.clock.now().toISOString(),
  );
  if (!updated) throw notFound('Rule', id);
  return updated;
}
