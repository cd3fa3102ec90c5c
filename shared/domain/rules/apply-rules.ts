import { matches } from './match';
import type { RegexEngine, RuleApplyDeps } from './ports';
import { ruleApplies, type Rule, type RuleDocument } from './rule';

/**
 * When rules are applied: `ingest`, as a document is created (rules on its filename or title); `text`, once its
 * text is known (rules on its content). Each rule thus reads a field once it has its final value.
 */
export type RulePhase = 'ingest' | 'text';

const fieldsOf = (phase: RulePhase) => (phase === 'ingest' ? ['filename', 'title'] : ['content']);

/** The labels the rules give the document (in rule order, each once). */
export async function labelsFromRules(rules: Rule[], document: RuleDocument, text: string, regex: RegexEngine): Promise<string[]> {
  const labels = new Set<string>();
  for (const rule of rules) {
    if (!ruleApplies(rule, document)) continue;
    const value = rule.match.field === 'content' ? text : rule.match.field === 'filename' ? document.filename : document.title;
    if (await matches(rule.match, value, regex)) for (const label of rule.add_labels) labels.add(label);
  }
  return [...labels];
}

/**
 * Puts on the document the labels of the workspace's rules that match it in this phase, through the label
 * assignment (counts, index and events follow as for any assignment). A label deleted since the rule was written
 * is passed over. Returns the labels newly assigned.
 */
export async function applyRules(deps: RuleApplyDeps, document: RuleDocument, phase: RulePhase, text = ''): Promise<string[]> {
  const fields = fieldsOf(phase);
  const rules = (await deps.rules.list()).filter((rule) => fields.includes(rule.match.field));
  if (!rules.length) return [];
  const labels = await labelsFromRules(rules, document, text, deps.regex);
  const assigned: string[] = [];
  const now = deps.clock.now().toISOString();
  for (const label of labels) {
    const outcome = await deps.labels.assign(label, [document.id], now);
    if (outcome?.assigned.length) assigned.push(label);
  }
  return assigned;
}

/** {@link applyRules}, reporting a failure instead of throwing: the document is stored whatever the rules do. */
export async function applyRulesSafely(deps: RuleApplyDeps, document: RuleDocument, phase: RulePhase, text?: string): Promise<void> {
  try {
    await applyRules(deps, document, phase, text);
  } catch (error) {
    deps.ruleLog('rules: applying the rules failed', { document_id: document.id, phase, error });
  }
}
