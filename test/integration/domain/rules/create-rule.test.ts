import { beforeAll, describe, expect, it } from 'vitest';
import { createRule } from '../../../../shared/domain/rules/create-rule';
import { MAX_RULES_PER_WORKSPACE } from '../../../../shared/domain/rules/rule';
import { refusalOf } from '../workspace-stores';
import { caller, newLabel, newRule, ruleStores } from './rule-setup';

describe('createRule', () => {
  let rules: Awaited<ReturnType<typeof ruleStores>>;

  beforeAll(async () => {
    rules = await ruleStores();
  });

  it('stores the rule with its labels once each, by its creator, never applied', async () => {
    // Arrange
    const w = rules.workspace();
    const label = await newLabel(w);

    // Act
    const rule = await createRule(w, caller(w), newRule({ addLabels: [label, label], order: 3 }));

    // Assert
    expect(rule).toMatchObject({ add_labels: [label], order: 3, created_by: 'alice', apply: null });
    expect(await w.rules.get(rule.id)).toEqual(rule);
  });

  it('refuses an invalid regular expression on match.pattern', async () => {
    // Arrange
    const w = rules.workspace();
    const label = await newLabel(w);

    // Act
    const refused = await refusalOf(createRule(w, caller(w), newRule({ match: { field: 'title', algorithm: 'regex', pattern: '[z-a]', case_sensitive: false }, addLabels: [label] })));

    // Assert
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'match.pattern' } });
  });

  it('refuses labels that do not exist, naming them on add_labels', async () => {
    // Arrange
    const w = rules.workspace();
    const ghost = crypto.randomUUID();

    // Act
    const refused = await refusalOf(createRule(w, caller(w), newRule({ addLabels: [ghost] })));

    // Assert
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'add_labels', unknown_label_ids: [ghost] } });
  });

  it(`refuses a rule beyond the ${MAX_RULES_PER_WORKSPACE} a workspace may have, with 409 rule_limit`, async () => {
    // Arrange
    const w = rules.workspace();
    const label = await newLabel(w);
    for (let i = 0; i < MAX_RULES_PER_WORKSPACE; i++) await createRule(w, caller(w), newRule({ addLabels: [label], order: i }));

    // Act
    const refused = await refusalOf(createRule(w, caller(w), newRule({ addLabels: [label] })));

    // Assert
    expect(refused).toMatchObject({ code: 'DUPLICATE_RESOURCE', status: 409, details: { reason: 'rule_limit', limit: MAX_RULES_PER_WORKSPACE } });
    expect(await w.rules.list()).toHaveLength(MAX_RULES_PER_WORKSPACE);
  });
});
