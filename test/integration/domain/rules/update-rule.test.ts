import { beforeAll, describe, expect, it } from 'vitest';
import { createRule } from '../../../../shared/domain/rules/create-rule';
import { updateRule } from '../../../../shared/domain/rules/update-rule';
import { refusalOf } from '../workspace-stores';
import { caller, newLabel, newRule, ruleStores } from './rule-setup';

describe('updateRule', () => {
  let rules: Awaited<ReturnType<typeof ruleStores>>;

  beforeAll(async () => {
    rules = await ruleStores();
  });

  it('changes what is given and keeps the rest, with its labels once each', async () => {
    // Arrange
    const w = rules.workspace();
    const [first, second] = [await newLabel(w), await newLabel(w)];
    const rule = await createRule(w, caller(w), newRule({ name: 'before', addLabels: [first] }));

    // Act
    const updated = await updateRule(w, rule.id, { name: 'after', addLabels: [second, second] });

    // Assert
    expect(updated).toMatchObject({ name: 'after', add_labels: [second], match: rule.match, order: rule.order });
    expect(await w.rules.get(rule.id)).toEqual(updated);
  });

  it('refuses a new pattern RE2 cannot compile, leaving the rule as it was', async () => {
    // Arrange
    const w = rules.workspace();
    const rule = await createRule(w, caller(w), newRule({ addLabels: [await newLabel(w)] }));

    // Act
    const refused = await refusalOf(updateRule(w, rule.id, { match: { field: 'title', algorithm: 'regex', pattern: '(unclosed', case_sensitive: true } }));

    // Assert
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'match.pattern' } });
    expect((await w.rules.get(rule.id))?.match).toEqual(rule.match);
  });

  it('refuses new labels that do not exist on add_labels', async () => {
    // Arrange
    const w = rules.workspace();
    const rule = await createRule(w, caller(w), newRule({ addLabels: [await newLabel(w)] }));
    const ghost = crypto.randomUUID();

    // Act
    const refused = await refusalOf(updateRule(w, rule.id, { addLabels: [ghost] }));

    // Assert
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'add_labels', unknown_label_ids: [ghost] } });
  });

  it('answers 404 for a change of a rule that does not exist', async () => {
    // Arrange
    const w = rules.workspace();

    // Act
    const refused = await refusalOf(updateRule(w, crypto.randomUUID(), { order: 1 }));

    // Assert
    expect(refused).toMatchObject({ code: 'NOT_FOUND' });
  });

  it("answers 404 for another workspace's rule", async () => {
    // Arrange
    const [owner, stranger] = [rules.workspace(), rules.workspace()];
    const rule = await createRule(owner, caller(owner), newRule({ addLabels: [await newLabel(owner)] }));

    // Act
    const refused = await refusalOf(updateRule(stranger, rule.id, { name: 'taken over' }));

    // Assert
    expect(refused).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'Rule', id: rule.id } });
    expect((await owner.rules.get(rule.id))?.name).toBe('rule');
  });
});
