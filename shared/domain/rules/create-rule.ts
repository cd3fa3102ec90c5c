import { conflict } from '../errors';
import type { Principal } from '../principal';
import type { RuleDeps } from './ports';
import { MAX_RULES_PER_WORKSPACE, type Rule, type RuleMatch, type RuleWhen } from './rule';
import { requireRuleLabels, requireValidPattern } from './rule-input';

export interface NewRule {
  name: string;
  match: RuleMatch;
  when: RuleWhen;
  addLabels: string[];
  order: number;
}

/** Creates a rule: its pattern must compile (regex), its labels exist, and the workspace hold fewer than the limit. */
export async function createRule(deps: RuleDeps, caller: Principal, input: NewRule): Promise<Rule> {
  await requireValidPattern(deps, input.match);
  await requireRuleLabels(deps, input.addLabels);
  const now = deps.clock.now().toISOString();
  const rule: Rule = {
    id: crypto.randomUUID(),
    name: input.name,
    match: input.match,
    when: input.when,
    add_labels: [...new Set(input.addLabels)],
    order: input.order,
    created_by: caller.username,
    created_at: now,
    updated_at: now,
    apply: null,
  };
  if ((await deps.rules.create(rule, MAX_RULES_PER_WORKSPACE)) === 'limit') {
    throw conflict(`A workspace may have at most ${MAX_RULES_PER_WORKSPACE} rules: delete one first`, { reason: 'rule_limit', limit: MAX_RULES_PER_WORKSPACE });
  }
  return rule;
}
