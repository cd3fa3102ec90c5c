import type { RuleRepository } from './ports';
import type { Rule } from './rule';

/** The workspace's rules in the order they apply. */
export const listRules = (deps: { rules: Pick<RuleRepository, 'list'> }): Promise<Rule[]> => deps.rules.list();
