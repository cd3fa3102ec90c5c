import { beforeAll, describe, expect, it } from 'vitest';
import { applyRules, applyRulesSafely } from '../../../../shared/domain/rules/apply-rules';
import { createRule } from '../../../../shared/domain/rules/create-rule';
import { aDocumentRecord } from '../../../support/builders';
import { caller, newLabel, newRule, ruleStores } from './rule-setup';

describe('applyRules', () => {
  let rules: Awaited<ReturnType<typeof ruleStores>>;

  beforeAll(async () => {
    rules = await ruleStores();
  });

  it('puts the labels of matching content rules on a document once its text is known, through the assignment', async () => {
    // Arrange
    const w = rules.workspace();
    const [invoices, other] = [await newLabel(w), await newLabel(w)];
    await createRule(w, caller(w), newRule({ addLabels: [invoices] }));
    await createRule(w, caller(w), newRule({ match: { field: 'content', algorithm: 'all', pattern: 'invoice unpaid', case_sensitive: false }, addLabels: [other] }));
    const document = aDocumentRecord({ labels: [] });
    await w.documents.create(document);

    // Act
    const assigned = await applyRules(w, document, 'text', 'Invoice 42 is paid');

    // Assert
    expect({ assigned, labels: (await w.documents.get(document.id))?.labels, count: (await w.labels.get(invoices))?.document_count }).toEqual({
      assigned: [invoices],
      labels: [invoices],
      count: 1,
    });
  });

  it('leaves out rules whose conditions the document does not meet', async () => {
    // Arrange
    const w = rules.workspace();
    const label = await newLabel(w);
    await createRule(w, caller(w), newRule({ match: { field: 'filename', algorithm: 'exact', pattern: 'scan', case_sensitive: false }, when: { mime_types: ['image/png'] }, addLabels: [label] }));
    const document = aDocumentRecord({ filename: 'scan.pdf', mime_type: 'application/pdf', labels: [] });
    await w.documents.create(document);

    // Act
    const assigned = await applyRules(w, document, 'ingest');

    // Assert
    expect(assigned).toEqual([]);
  });

  it('reads filename and title rules as the document is created, and leaves content rules for its text', async () => {
    // Arrange
    const w = rules.workspace();
    const [byTitle, byContent] = [await newLabel(w), await newLabel(w)];
    await createRule(w, caller(w), newRule({ match: { field: 'title', algorithm: 'any', pattern: 'invoice', case_sensitive: false }, addLabels: [byTitle] }));
    await createRule(w, caller(w), newRule({ addLabels: [byContent] }));
    const document = aDocumentRecord({ title: 'Invoice March', labels: [] });
    await w.documents.create(document);

    // Act
    const assigned = await applyRules(w, document, 'ingest', 'invoice');

    // Assert
    expect(assigned).toEqual([byTitle]);
  });

  it('does not count a label the document already carries as assigned', async () => {
    // Arrange
    const w = rules.workspace();
    const label = await newLabel(w);
    await createRule(w, caller(w), newRule({ addLabels: [label] }));
    const document = aDocumentRecord({ labels: [label] });
    await w.documents.create(document);

    // Act
    const assigned = await applyRules(w, document, 'text', 'invoice');

    // Assert
    expect(assigned).toEqual([]);
    expect((await w.labels.get(label))?.document_count).toBe(1);
  });
});

describe('applyRulesSafely', () => {
  it('reports a failure of the rules instead of throwing it', async () => {
    // Arrange
    const { workspace, stores } = await ruleStores();
    const w = workspace();
    const document = aDocumentRecord();
    const broken = { ...w, rules: { list: () => Promise.reject(new Error('table unavailable')) } };

    // Act
    await applyRulesSafely(broken, document, 'ingest');

    // Assert
    expect(stores.ruleProblems).toEqual([{ message: 'rules: applying the rules failed', fields: expect.objectContaining({ document_id: document.id, phase: 'ingest' }) }]);
  });
});
