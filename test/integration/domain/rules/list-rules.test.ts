import { beforeAll, describe, expect, it } from 'vitest';
import { createRule } from '../../../../shared/domain/rules/create-rule';
import { listRules } from '../../../../shared/domain/rules/list-rules';
import { ManualClock } from '../../../support/builders';
import { caller, newLabel, newRule, ruleStores } from './rule-setup';

describe('listRules', () => {
  let rules: Awaited<ReturnType<typeof ruleStores>>;

  beforeAll(async () => {
    rules = await ruleStores();
  });

  it('lists the rules in the order they apply', async () => {
    // Arrange
    const w = rules.workspace();
    const label = await newLabel(w);
    for (const [name, order] of [['third', 5], ['first', 1], ['second', 2]] as const) await createRule(w, caller(w), newRule({ name, order, addLabels: [label] }));

    // Act
    const listed = await listRules(w);

    // Assert
    expect(listed.map((rule) => rule.name)).toEqual(['first', 'second', 'third']);
  });

  it('orders rules of equal order by creation', async () => {
    // Arrange
    const clock = new ManualClock();
    const w = { ...rules.workspace(), clock };
    const label = await newLabel(w);
    await createRule(w, caller(w), newRule({ name: 'earlier', addLabels: [label] }));
    clock.advanceSeconds(1);
    await createRule(w, caller(w), newRule({ name: 'later', addLabels: [label] }));

    // Act
    const listed = await listRules(w);

    // Assert
    expect(listed.map((rule) => rule.name)).toEqual(['earlier', 'later']);
  });

  it("leaves out another workspace's rules", async () => {
    // Arrange
    const [mine, theirs] = [rules.workspace(), rules.workspace()];
    await createRule(theirs, caller(theirs), newRule({ addLabels: [await newLabel(theirs)] }));

    // Act
    const listed = await listRules(mine);

    // Assert
    expect(listed).toEqual([]);
  });
});
