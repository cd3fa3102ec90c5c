import { beforeAll, describe, expect, it } from 'vitest';
import { applyRules } from '../../../../shared/domain/rules/apply-rules';
import { createRule } from '../../../../shared/domain/rules/create-rule';
import { deleteRule } from '../../../../shared/domain/rules/delete-rule';
import { aDocumentRecord } from '../../../support/builders';
import { refusalOf } from '../workspace-stores';
import { caller, newLabel, newRule, ruleStores } from './rule-setup';

describe('deleteRule', () => {
  let rules: Awaited<ReturnType<typeof ruleStores>>;

  beforeAll(async () => {
    rules = await ruleStores();
  });

  it('removes the rule and keeps the labels it added on their documents', async () => {
    // Arrange
    const w = rules.workspace();
    const label = await newLabel(w);
    const rule = await createRule(w, caller(w), newRule({ addLabels: [label] }));
    const document = aDocumentRecord({ labels: [] });
    await w.documents.create(document);
    await applyRules(w, document, 'text', 'an invoice');

    // Act
    await deleteRule(w, rule.id);

    // Assert
    expect(await w.rules.get(rule.id)).toBeNull();
    expect((await w.documents.get(document.id))?.labels).toEqual([label]);
  });

  it('answers 404 for a rule that does not exist', async () => {
    // Arrange
    const w = rules.workspace();
    const id = crypto.randomUUID();

    // Act
    const refused = await refusalOf(deleteRule(w, id));

    // Assert
    expect(refused).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'Rule', id } });
  });

  it("answers 404 for another workspace's rule and keeps it", async () => {
    // Arrange
    const [owner, stranger] = [rules.workspace(), rules.workspace()];
    const rule = await createRule(owner, caller(owner), newRule({ addLabels: [await newLabel(owner)] }));

    // Act
    const refused = await refusalOf(deleteRule(stranger, rule.id));

    // Assert
    expect(refused).toMatchObject({ code: 'NOT_FOUND' });
    expect(await owner.rules.get(rule.id)).not.toBeNull();
  });
});
