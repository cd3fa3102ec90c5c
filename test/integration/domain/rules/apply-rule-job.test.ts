import { beforeAll, describe, expect, it } from 'vitest';
import { failApplyRule, runApplyRuleStep, startApplyRule } from '../../../../shared/domain/rules/apply-rule-job';
import { createRule } from '../../../../shared/domain/rules/create-rule';
import { deleteRule } from '../../../../shared/domain/rules/delete-rule';
import { aDocumentRecord } from '../../../support/builders';
import { refusalOf } from '../workspace-stores';
import { caller, newLabel, newRule, ruleStores } from './rule-setup';

describe('applying a rule to existing documents', () => {
  let rules: Awaited<ReturnType<typeof ruleStores>>;

  beforeAll(async () => {
    rules = await ruleStores();
  });

  const titleRule = (label: string) => newRule({ match: { field: 'title', algorithm: 'any', pattern: 'invoice', case_sensitive: false }, addLabels: [label] });

  it('runs a rule over existing documents in steps, each queueing the next, to completion with its counts', async () => {
    // Arrange
    const w = rules.workspace();
    const label = await newLabel(w);
    const documents = Array.from({ length: 5 }, (_, i) =>
      aDocumentRecord({ title: i % 2 ? `Invoice ${i}` : `Letter ${i}`, labels: [], created_at: `2026-01-0${i + 1}T00:00:00.000Z` }),
    );
    for (const document of documents) await w.documents.create(document);
    const rule = await createRule(w, caller(w), titleRule(label));
    rules.queued.length = 0;

    // Act
    const started = await startApplyRule(w, rule.id);
    const outcomes: string[] = [];
    while (rules.queued.length) outcomes.push(await runApplyRuleStep(w, rules.queued.shift()!, 2));

    // Assert
    expect({ started: started.state, outcomes, run: (await w.rules.get(rule.id))?.apply }).toMatchObject({
      started: 'queued',
      outcomes: ['continued', 'continued', 'completed'],
      run: { state: 'completed', processed: 5, total: 5, labelled: 2 },
    });
  });

  it('does a step delivered twice once', async () => {
    // Arrange
    const w = rules.workspace();
    const label = await newLabel(w);
    await w.documents.create(aDocumentRecord({ title: 'Invoice', labels: [] }));
    const rule = await createRule(w, caller(w), titleRule(label));
    rules.queued.length = 0;
    await startApplyRule(w, rule.id);
    const message = rules.queued.shift()!;

    // Act
    const [first, second] = await Promise.all([runApplyRuleStep(w, message), runApplyRuleStep(w, message)]);

    // Assert
    expect({ outcomes: [first, second].sort(), labelled: (await w.rules.get(rule.id))?.apply?.labelled }).toEqual({ outcomes: ['completed', 'stale'], labelled: 1 });
  });

  it('refuses a second run while one is queued, with 409 apply_running', async () => {
    // Arrange
    const w = rules.workspace();
    const rule = await createRule(w, caller(w), newRule({ addLabels: [await newLabel(w)] }));
    await startApplyRule(w, rule.id);

    // Act
    const refused = await refusalOf(startApplyRule(w, rule.id));

    // Assert
    expect(refused).toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { reason: 'apply_running', id: rule.id } });
  });

  it('answers 404 for a run of a rule that does not exist', async () => {
    // Arrange
    const w = rules.workspace();
    const id = crypto.randomUUID();

    // Act
    const refused = await refusalOf(startApplyRule(w, id));

    // Assert
    expect(refused).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'Rule', id } });
  });

  it('ends a run failed when its step fails for the last time, and lets the rule be applied again', async () => {
    // Arrange
    const w = rules.workspace();
    const rule = await createRule(w, caller(w), newRule({ addLabels: [await newLabel(w)] }));
    rules.queued.length = 0;
    await startApplyRule(w, rule.id);

    // Act
    await failApplyRule(w, rules.queued.shift()!);
    const again = await startApplyRule(w, rule.id);

    // Assert
    expect(again.state).toBe('queued');
  });

  it('ends as stale a step whose rule was deleted meanwhile, queueing nothing', async () => {
    // Arrange
    const w = rules.workspace();
    await w.documents.create(aDocumentRecord({ title: 'Invoice', labels: [] }));
    const rule = await createRule(w, caller(w), titleRule(await newLabel(w)));
    rules.queued.length = 0;
    await startApplyRule(w, rule.id);
    const message = rules.queued.shift()!;
    await deleteRule(w, rule.id);

    // Act
    const outcome = await runApplyRuleStep(w, message);

    // Assert
    expect({ outcome, queued: rules.queued }).toEqual({ outcome: 'stale', queued: [] });
  });

  it('marks the run failed when its first step cannot be queued, and passes the failure on', async () => {
    // Arrange
    const w = rules.workspace();
    const rule = await createRule(w, caller(w), newRule({ addLabels: [await newLabel(w)] }));
    const unreachable = { ...w, ruleJobs: { enqueue: () => Promise.reject(new Error('queue unavailable')) } };

    // Act
    const failure = await refusalOf(startApplyRule(unreachable, rule.id));

    // Assert
    expect(failure).toMatchObject({ message: 'queue unavailable' });
    expect((await w.rules.get(rule.id))?.apply?.state).toBe('failed');
  });
});
