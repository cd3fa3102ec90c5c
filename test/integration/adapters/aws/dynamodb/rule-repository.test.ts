import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoRuleRepository } from '../../../../../shared/adapters/aws/dynamodb/rule-repository';
import type { Rule, RuleApplyJob } from '../../../../../shared/domain/rules/rule';
import { freshTable } from '../../../../support/aws-resources';

const aRule = (overrides: Partial<Rule> = {}): Rule => ({
  id: crypto.randomUUID(),
  name: 'invoices',
  match: { field: 'content', algorithm: 'any', pattern: 'invoice', case_sensitive: false },
  when: {},
  add_labels: [crypto.randomUUID()],
  order: 0,
  created_by: 'alice',
  created_at: new Date().toISOString(),
  updated_at: new Date().toISOString(),
  apply: null,
  ...overrides,
});

const aJob = (overrides: Partial<RuleApplyJob> = {}): RuleApplyJob => ({
  job_id: crypto.randomUUID(),
  state: 'queued',
  processed: 0,
  total: 3,
  labelled: 0,
  started_at: new Date().toISOString(),
  finished_at: null,
  ...overrides,
});

describe('DynamoRuleRepository', () => {
  let table: Awaited<ReturnType<typeof freshTable>>;
  const repoOf = (workspaceId: string) => new DynamoRuleRepository(table.db, table.tableName, workspaceId);

  beforeAll(async () => {
    table = await freshTable();
  });

  it('reads a rule back as it was stored', async () => {
    const repo = repoOf(crypto.randomUUID());
    const rule = aRule({ when: { mime_types: ['application/pdf'], source_id: null } });

    await repo.create(rule, 100);

    expect(await repo.get(rule.id)).toEqual(rule);
  });

  it('lists rules ascending by order, ties by creation, and only its workspace\'s', async () => {
    const [repo, other] = [repoOf(crypto.randomUUID()), repoOf(crypto.randomUUID())];
    const late = aRule({ order: 1, created_at: '2026-01-02T00:00:00.000Z' });
    const early = aRule({ order: 1, created_at: '2026-01-01T00:00:00.000Z' });
    const first = aRule({ order: -3 });
    for (const rule of [late, early, first]) await repo.create(rule, 100);
    await other.create(aRule(), 100);

    const listed = await repo.list();

    expect(listed.map((r) => r.id)).toEqual([first.id, early.id, late.id]);
  });

  it('refuses a rule past the limit, and counts a deleted one out', async () => {
    const repo = repoOf(crypto.randomUUID());
    const [a, b, c] = [aRule(), aRule(), aRule()];
    await repo.create(a, 2);
    await repo.create(b, 2);

    const refused = await repo.create(c, 2);
    await repo.delete(a.id);
    const accepted = await repo.create(c, 2);

    expect({ refused, accepted }).toEqual({ refused: 'limit', accepted: 'created' });
  });

  it('changes only the given fields and answers null for a rule that does not exist', async () => {
    const repo = repoOf(crypto.randomUUID());
    const rule = aRule();
    await repo.create(rule, 100);

    const changed = await repo.update(rule.id, { order: 7, name: undefined }, '2030-01-01T00:00:00.000Z');
    const missing = await repo.update(crypto.randomUUID(), { order: 7 }, '2030-01-01T00:00:00.000Z');

    expect({ changed, missing }).toEqual({ changed: { ...rule, order: 7, updated_at: '2030-01-01T00:00:00.000Z' }, missing: null });
  });

  it('starts one run at a time and starts again once it finished', async () => {
    const repo = repoOf(crypto.randomUUID());
    const rule = aRule();
    await repo.create(rule, 100);
    const first = aJob();

    await repo.startApply(rule.id, first);
    const busy = await repo.startApply(rule.id, aJob());
    await repo.recordStep(rule.id, first.job_id, { cursor: null, processed: 0 }, { job: { ...first, state: 'completed' }, cursor: null });
    const again = await repo.startApply(rule.id, aJob());

    expect({ busy, again: again !== null && again !== 'busy' }).toEqual({ busy: 'busy', again: true });
  });

  it('records a step once: a second delivery from the same cursor is refused', async () => {
    const repo = repoOf(crypto.randomUUID());
    const rule = aRule();
    await repo.create(rule, 100);
    const job = aJob();
    await repo.startApply(rule.id, job);
    const step = { job: { ...job, state: 'running' as const, processed: 2 }, cursor: 'cursor-1' };

    const once = await repo.recordStep(rule.id, job.job_id, { cursor: null, processed: 0 }, step);
    const twice = await repo.recordStep(rule.id, job.job_id, { cursor: null, processed: 0 }, step);

    expect({ once, twice, progress: await repo.applyProgress(rule.id) }).toEqual({ once: true, twice: false, progress: step });
  });

  it('shows a run on its rule without its cursor', async () => {
    const repo = repoOf(crypto.randomUUID());
    const rule = aRule();
    await repo.create(rule, 100);
    const job = aJob();
    await repo.startApply(rule.id, job);
    await repo.recordStep(rule.id, job.job_id, { cursor: null, processed: 0 }, { job, cursor: 'somewhere' });

    expect(await repo.get(rule.id)).toEqual({ ...rule, apply: job });
  });
});
