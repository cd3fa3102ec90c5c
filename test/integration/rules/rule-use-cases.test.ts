import { beforeAll, describe, expect, it } from 'vitest';
import { inWorkspace, type AppContainer, type InWorkspace } from '../../../shared/container/app-container';
import { AppError } from '../../../shared/domain/errors';
import { createLabel } from '../../../shared/domain/labels/create-label';
import type { Principal } from '../../../shared/domain/principal';
import { failApplyRule, runApplyRuleStep, startApplyRule } from '../../../shared/domain/rules/apply-rule-job';
import { resumeRuleRuns } from '../../../shared/domain/rules/resume-rule-runs';
import { applyRules } from '../../../shared/domain/rules/apply-rules';
import { createRule, type NewRule } from '../../../shared/domain/rules/create-rule';
import type { RuleJobMessage } from '../../../shared/domain/rules/ports';
import { updateRule } from '../../../shared/domain/rules/update-rule';
import { aDocumentRecord } from '../../support/builders';
import { testContainer } from '../../support/test-container';

/** The rules' use cases on DynamoDB Local, with the real repositories, label assignment and RE2 engine. */
describe('labelling rules', () => {
  let c: AppContainer;
  /** Steps the use cases queued, in order (the rule-jobs queue, as the worker would receive them). */
  const queued: RuleJobMessage[] = [];

  beforeAll(async () => {
    ({ c } = await testContainer({ ruleJobs: { enqueue: async (message) => void queued.push(message) } }));
  });

  const workspace = () => inWorkspace(c, { workspaceId: crypto.randomUUID() });
  const caller = (w: InWorkspace<AppContainer>) => ({ username: 'alice', workspaceId: w.workspaceId }) as Principal;
  const newLabel = async (w: InWorkspace<AppContainer>) => (await createLabel(w, caller(w), { name: `l-${crypto.randomUUID()}`, color: '#112233' })).id;
  const newRule = (overrides: Partial<NewRule> & Pick<NewRule, 'addLabels'>): NewRule => ({
    name: 'rule',
    match: { field: 'content', algorithm: 'any', pattern: 'invoice', case_sensitive: false },
    when: {},
    order: 0,
    ...overrides,
  });
  const refusal = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => (error instanceof AppError ? { code: error.code, details: error.details } : error));

  it('refuses an invalid regular expression on match.pattern', async () => {
    const w = workspace();
    const label = await newLabel(w);

    const refused = await refusal(createRule(w, caller(w), newRule({ match: { field: 'title', algorithm: 'regex', pattern: '[z-a]', case_sensitive: false }, addLabels: [label] })));

    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'match.pattern' } });
  });

  it('refuses labels that do not exist, naming them on add_labels', async () => {
    const w = workspace();
    const ghost = crypto.randomUUID();

    const refused = await refusal(createRule(w, caller(w), newRule({ addLabels: [ghost] })));

    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'add_labels', unknown_label_ids: [ghost] } });
  });

  it('answers 404 for a change of a rule that does not exist', async () => {
    const w = workspace();

    const refused = await refusal(updateRule(w, crypto.randomUUID(), { order: 1 }));

    expect(refused).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('puts the labels of matching content rules on a document once its text is known, through the assignment', async () => {
    const w = workspace();
    const [invoices, other] = [await newLabel(w), await newLabel(w)];
    await createRule(w, caller(w), newRule({ addLabels: [invoices] }));
    await createRule(w, caller(w), newRule({ match: { field: 'content', algorithm: 'all', pattern: 'invoice unpaid', case_sensitive: false }, addLabels: [other] }));
    const document = aDocumentRecord({ labels: [] });
    await w.documents.create(document);

    const assigned = await applyRules(w, document, 'text', 'Invoice 42 is paid');

    expect({ assigned, labels: (await w.documents.get(document.id))?.labels, count: (await w.labels.get(invoices))?.document_count }).toEqual({
      assigned: [invoices],
      labels: [invoices],
      count: 1,
    });
  });

  it('leaves out rules whose conditions the document does not meet', async () => {
    const w = workspace();
    const label = await newLabel(w);
    await createRule(w, caller(w), newRule({ match: { field: 'filename', algorithm: 'exact', pattern: 'scan', case_sensitive: false }, when: { mime_types: ['image/png'] }, addLabels: [label] }));
    const document = aDocumentRecord({ filename: 'scan.pdf', mime_type: 'application/pdf', labels: [] });
    await w.documents.create(document);

    expect(await applyRules(w, document, 'ingest')).toEqual([]);
  });

  it('runs a rule over existing documents in steps, each queueing the next, to completion with its counts', async () => {
    const w = workspace();
    const label = await newLabel(w);
    const documents = Array.from({ length: 5 }, (_, i) =>
      aDocumentRecord({ title: i % 2 ? `Invoice ${i}` : `Letter ${i}`, labels: [], created_at: `2026-01-0${i + 1}T00:00:00.000Z` }),
    );
    for (const document of documents) await w.documents.create(document);
    const rule = await createRule(w, caller(w), newRule({ match: { field: 'title', algorithm: 'any', pattern: 'invoice', case_sensitive: false }, addLabels: [label] }));
    queued.length = 0;

    const started = await startApplyRule(w, rule.id);
    const outcomes: string[] = [];
    while (queued.length) outcomes.push(await runApplyRuleStep(w, queued.shift()!, 2));

    expect({ started: started.state, outcomes, run: (await w.rules.get(rule.id))?.apply }).toMatchObject({
      started: 'queued',
      outcomes: ['continued', 'continued', 'completed'],
      run: { state: 'completed', processed: 5, total: 5, labelled: 2 },
    });
  });

  it('does a step delivered twice once', async () => {
    const w = workspace();
    const label = await newLabel(w);
    await w.documents.create(aDocumentRecord({ title: 'Invoice', labels: [] }));
    const rule = await createRule(w, caller(w), newRule({ match: { field: 'title', algorithm: 'any', pattern: 'invoice', case_sensitive: false }, addLabels: [label] }));
    queued.length = 0;
    await startApplyRule(w, rule.id);
    const message = queued.shift()!;

    const [first, second] = await Promise.all([runApplyRuleStep(w, message), runApplyRuleStep(w, message)]);

    expect({ outcomes: [first, second].sort(), labelled: (await w.rules.get(rule.id))?.apply?.labelled }).toEqual({ outcomes: ['completed', 'stale'], labelled: 1 });
  });

  it('refuses a second run while one is queued', async () => {
    const w = workspace();
    const label = await newLabel(w);
    const rule = await createRule(w, caller(w), newRule({ addLabels: [label] }));
    await startApplyRule(w, rule.id);

    expect(await refusal(startApplyRule(w, rule.id))).toMatchObject({ code: 'DUPLICATE_RESOURCE' });
  });

  it('ends a run failed when its step fails for the last time, and lets the rule be applied again', async () => {
    const w = workspace();
    const label = await newLabel(w);
    const rule = await createRule(w, caller(w), newRule({ addLabels: [label] }));
    queued.length = 0;
    await startApplyRule(w, rule.id);

    await failApplyRule(w, queued.shift()!);
    const again = await startApplyRule(w, rule.id);

    expect({ again: again.state }).toEqual({ again: 'queued' });
  });

  it('queues again the next step of a run an earlier process left unfinished', async () => {
    const w = workspace();
    await c.workspaces.create({ id: w.workspaceId, name: `ws ${w.workspaceId}`, created_at: new Date().toISOString() });
    const label = await newLabel(w);
    const rule = await createRule(w, caller(w), newRule({ addLabels: [label] }));
    const started = await startApplyRule(w, rule.id);
    queued.length = 0;

    await resumeRuleRuns(c);

    expect(queued).toContainEqual({ workspace_id: w.workspaceId, rule_id: rule.id, job_id: started.job_id });
  });
});
