import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoSourceRepository } from '../../../../../shared/adapters/aws/dynamodb/source-repository';
import { DynamoSourceSchedule } from '../../../../../shared/adapters/aws/dynamodb/source-schedule';
import { MAX_SYNC_ERRORS, type SyncJob } from '../../../../../shared/domain/sources/sync-job';
import { freshTable, testClients } from '../../../../support/aws-resources';
import { aSourceRecord, aSyncJob } from '../../../../support/builders';
import { hold } from '../../../../support/dynamo-faults';

type Db = Awaited<ReturnType<typeof freshTable>>['db'];

const aSource = aSourceRecord;
const aJob = aSyncJob;

const LATER = '2026-01-01T00:10:00.000Z';
const NOW = '2026-01-01T00:05:00.000Z';

describe('DynamoSourceRepository', () => {
  let db: Db;
  let tableName: string;
  let sources: DynamoSourceRepository;
  const workspaceId = crypto.randomUUID();

  beforeAll(async () => {
    ({ db, tableName } = await freshTable());
    sources = new DynamoSourceRepository(db, tableName, workspaceId);
  });

  /** A stored source with a sync started on it. */
  const started = async (overrides: Partial<SyncJob> = {}) => {
    const source = aSource();
    await sources.create(source);
    const job = aJob(source.id, overrides);
    await sources.startJob(job);
    return { source, job };
  };

  it('reads back a created source', async () => {
    const source = aSource();

    await sources.create(source);

    expect(await sources.get(source.id)).toEqual(source);
  });

  it('returns null for a source that does not exist', async () => {
    expect(await sources.get(crypto.randomUUID())).toBeNull();
  });

  it('lists the workspace sources oldest first, and no other workspace ones', async () => {
    const { db: ownDb, tableName: ownTable } = await freshTable();
    const mine = new DynamoSourceRepository(ownDb, ownTable, 'ws-a');
    const [older, newer] = [aSource({ created_at: '2026-01-01T00:00:00.000Z' }), aSource({ created_at: '2026-01-02T00:00:00.000Z' })];
    await mine.create(newer);
    await mine.create(older);
    await new DynamoSourceRepository(ownDb, ownTable, 'ws-b').create(aSource());

    expect((await mine.list()).map((source) => source.id)).toEqual([older.id, newer.id]);
  });

  it('updates the editable fields and keeps the sync fields', async () => {
    const { source, job } = await started();

    const updated = await sources.update(source.id, { name: 'renamed', recursive: false, updated_at: LATER });

    expect(updated).toMatchObject({ name: 'renamed', recursive: false, current_job_id: job.job_id, last_job_id: job.job_id });
    expect(await sources.get(source.id)).toEqual(updated);
  });

  it('returns null when updating a source that does not exist', async () => {
    expect(await sources.update(crypto.randomUUID(), { name: 'x' })).toBeNull();
  });

  it('starts a sync on an idle source and makes it the current one', async () => {
    const source = aSource();
    await sources.create(source);
    const job = aJob(source.id);

    expect(await sources.startJob(job)).toBe('started');
    expect(await sources.get(source.id)).toMatchObject({ current_job_id: job.job_id, last_job_id: job.job_id });
    expect(await sources.getJob(source.id, job.job_id)).toEqual(job);
  });

  it('refuses a second sync while one runs', async () => {
    const { source, job } = await started();

    expect(await sources.startJob(aJob(source.id))).toBe('busy');
    expect((await sources.get(source.id))?.current_job_id).toBe(job.job_id);
  });

  it('says not_found when starting a sync of a source that does not exist', async () => {
    expect(await sources.startJob(aJob(crypto.randomUUID()))).toBe('not_found');
  });

  it('starts exactly one of two syncs asked for at the same moment', async () => {
    const source = aSource();
    await sources.create(source);

    const outcomes = await Promise.all([sources.startJob(aJob(source.id)), sources.startJob(aJob(source.id))]);

    expect(outcomes.sort()).toEqual(['busy', 'started']);
  });

  it('leases a queued sync once, and marks it running', async () => {
    const { source, job } = await started();

    const leased = await sources.leaseJob(source.id, job.job_id, LATER, NOW);

    expect(leased).toMatchObject({ state: 'running', started_at: NOW });
    expect(await sources.leaseJob(source.id, job.job_id, LATER, NOW)).toBeNull();
  });

  it('leases a sync again once its lease expired, keeping when it started', async () => {
    const { source, job } = await started();
    await sources.leaseJob(source.id, job.job_id, LATER, NOW);

    const leased = await sources.leaseJob(source.id, job.job_id, '2026-01-01T00:20:00.000Z', '2026-01-01T00:10:00.001Z');

    expect(leased).toMatchObject({ state: 'running', started_at: NOW });
  });

  it('leases a released sync at once', async () => {
    const { source, job } = await started();
    await sources.leaseJob(source.id, job.job_id, LATER, NOW);

    await sources.releaseJob(source.id, job.job_id);

    expect(await sources.leaseJob(source.id, job.job_id, LATER, NOW)).not.toBeNull();
  });

  /** Takes the lease and lets it go, as a takeover does after the worker that held it vanished. */
  const leaseAndLose = async (sourceId: string, jobId: string) => {
    await sources.leaseJob(sourceId, jobId, LATER, NOW);
    await sources.releaseJob(sourceId, jobId);
  };

  it('counts each lease of a sync as a start of its step', async () => {
    const { source, job } = await started();
    await leaseAndLose(source.id, job.job_id);
    await leaseAndLose(source.id, job.job_id);

    const leased = await sources.leaseJob(source.id, job.job_id, LATER, NOW);

    expect(leased?.attempts).toBe(3);
  });

  it('counts the starts from zero again once progress is recorded', async () => {
    const { source, job } = await started();
    await leaseAndLose(source.id, job.job_id);
    await sources.leaseJob(source.id, job.job_id, LATER, NOW);
    await sources.recordProgress(source.id, job.job_id, { counts: { new: 1 }, currentFile: 'a.pdf' });
    await sources.releaseJob(source.id, job.job_id);

    const leased = await sources.leaseJob(source.id, job.job_id, LATER, NOW);

    expect(leased?.attempts).toBe(1);
  });

  it('counts the starts from zero again once a step lets its lease go having progressed', async () => {
    const { source, job } = await started();
    await leaseAndLose(source.id, job.job_id);
    await sources.leaseJob(source.id, job.job_id, LATER, NOW);
    await sources.releaseJob(source.id, job.job_id, { progressed: true });

    const leased = await sources.leaseJob(source.id, job.job_id, LATER, NOW);

    expect(leased?.attempts).toBe(1);
  });

  it('does not count a lease refused because another worker holds it', async () => {
    const { source, job } = await started();
    await sources.leaseJob(source.id, job.job_id, LATER, NOW);
    await sources.leaseJob(source.id, job.job_id, LATER, NOW);
    await sources.releaseJob(source.id, job.job_id);

    const leased = await sources.leaseJob(source.id, job.job_id, LATER, NOW);

    expect(leased?.attempts).toBe(2);
  });

  it('keeps the count of starts out of the job as it is read', async () => {
    const { source, job } = await started();
    await sources.leaseJob(source.id, job.job_id, LATER, NOW);

    expect(await sources.getJob(source.id, job.job_id)).not.toHaveProperty('attempts');
  });

  it('adds progress to the counts, processed and total', async () => {
    const { source, job } = await started();

    await sources.recordProgress(source.id, job.job_id, { counts: { new: 2, unchanged: 3 }, total: 10, currentFile: 'a.pdf' });
    await sources.recordProgress(source.id, job.job_id, { counts: { new: 1, failed: 1 }, total: 2 });

    expect(await sources.getJob(source.id, job.job_id)).toMatchObject({
      new: 3,
      unchanged: 3,
      failed: 1,
      processed: 7,
      total: 12,
      current_file: 'a.pdf',
    });
  });

  it('records progress whose counts include zeros', async () => {
    const { source, job } = await started();

    await sources.recordProgress(source.id, job.job_id, { counts: { unchanged: 3, skipped: 0 }, total: 3 });

    expect(await sources.getJob(source.id, job.job_id)).toMatchObject({ unchanged: 3, skipped: 0, processed: 3, total: 3 });
  });

  it('keeps the first MAX_SYNC_ERRORS errors only', async () => {
    const { source, job } = await started();
    const errors = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ path: `f${from + i}`, reason: 'forbidden' }));

    await sources.recordProgress(source.id, job.job_id, { errors: errors(0, MAX_SYNC_ERRORS - 2) });
    await sources.recordProgress(source.id, job.job_id, { errors: errors(100, 5) });
    await sources.recordProgress(source.id, job.job_id, { errors: errors(200, 1) });

    const stored = (await sources.getJob(source.id, job.job_id))!.errors;
    expect(stored).toHaveLength(MAX_SYNC_ERRORS);
    expect(stored.at(-1)).toEqual({ path: 'f101', reason: 'forbidden' });
  });

  it('finishes a sync: the job ends and the source is idle with its next sync', async () => {
    const { source, job } = await started();

    await sources.finishJob(source.id, job.job_id, {
      state: 'completed',
      finishedAt: LATER,
      failure: null,
      source: { error: null, last_sync: LATER, next_sync: '2026-01-01T01:10:00.000Z' },
    });

    expect(await sources.get(source.id)).toMatchObject({ current_job_id: null, last_job_id: job.job_id, last_sync: LATER, next_sync: '2026-01-01T01:10:00.000Z' });
    expect(await sources.getJob(source.id, job.job_id)).toMatchObject({ state: 'completed', finished_at: LATER, failure: null });
  });

  it('keeps an edit made while a sync finishes', async () => {
    const { source, job } = await started();
    const slowDb = testClients().dynamo;
    const slow = hold(slowDb, 'request', (command) => command === 'TransactWriteItemsCommand');
    const finishing = new DynamoSourceRepository(slowDb, tableName, workspaceId).finishJob(source.id, job.job_id, {
      state: 'completed',
      finishedAt: LATER,
      failure: null,
      source: { error: null, last_sync: LATER, next_sync: '2026-01-01T01:10:00.000Z' },
    });
    await slow.held;

    await sources.update(source.id, { name: 'renamed meanwhile', updated_at: LATER });
    slow.release();
    await finishing;

    expect(await sources.get(source.id)).toMatchObject({ name: 'renamed meanwhile', current_job_id: null, last_sync: LATER });
  });

  it('deletes a source with its syncs, and says false for one that does not exist', async () => {
    const { source, job } = await started();

    expect(await sources.delete(source.id)).toBe(true);

    expect(await sources.get(source.id)).toBeNull();
    expect(await sources.getJob(source.id, job.job_id)).toBeNull();
    expect(await sources.delete(source.id)).toBe(false);
  });
});

describe('DynamoSourceSchedule', () => {
  let db: Db;
  let tableName: string;

  beforeAll(async () => {
    ({ db, tableName } = await freshTable());
  });

  it('finds the enabled sources due by now across workspaces, and not disabled or later ones', async () => {
    const [a, b] = [new DynamoSourceRepository(db, tableName, 'ws-a'), new DynamoSourceRepository(db, tableName, 'ws-b')];
    const [dueA, dueNowB, disabled, later] = [
      aSource({ next_sync: '2026-02-01T00:00:00.000Z' }),
      aSource({ next_sync: '2026-02-01T00:05:00.000Z' }),
      aSource({ next_sync: '2026-02-01T00:00:00.000Z', enabled: false }),
      aSource({ next_sync: '2026-02-01T00:06:00.000Z' }),
    ];
    await Promise.all([a.create(dueA), b.create(dueNowB), a.create(disabled), b.create(later)]);

    const due = await new DynamoSourceSchedule(db, tableName).due('2026-02-01T00:05:00.000Z', 100);

    expect(due).toEqual([
      { workspaceId: 'ws-a', sourceId: dueA.id },
      { workspaceId: 'ws-b', sourceId: dueNowB.id },
    ]);
  });

  it('drops a source from the schedule once it is disabled', async () => {
    const { db: ownDb, tableName: ownTable } = await freshTable();
    const sources = new DynamoSourceRepository(ownDb, ownTable, 'ws-a');
    const source = aSource({ next_sync: '2026-02-01T00:00:00.000Z' });
    await sources.create(source);

    await sources.update(source.id, { enabled: false });

    expect(await new DynamoSourceSchedule(ownDb, ownTable).due('2026-03-01T00:00:00.000Z', 100)).toEqual([]);
  });

  it('finds unfinished syncs whose lease ended, and not leased or finished ones', async () => {
    const { db: ownDb, tableName: ownTable } = await freshTable();
    const sources = new DynamoSourceRepository(ownDb, ownTable, 'ws-a');
    const [lapsed, leased, finished] = [aSource(), aSource(), aSource()];
    await Promise.all([lapsed, leased, finished].map((source) => sources.create(source)));
    const jobs = [aJob(lapsed.id), aJob(leased.id), aJob(finished.id)];
    await Promise.all(jobs.map((job) => sources.startJob(job)));
    await sources.leaseJob(lapsed.id, jobs[0]!.job_id, '2026-01-01T00:01:00.000Z', NOW);
    await sources.leaseJob(leased.id, jobs[1]!.job_id, '2026-01-01T00:30:00.000Z', NOW);
    await sources.finishJob(finished.id, jobs[2]!.job_id, { state: 'failed', finishedAt: NOW, failure: 'unreachable', source: { error: 'unreachable', last_sync: NOW, next_sync: LATER } });

    const stalled = await new DynamoSourceSchedule(ownDb, ownTable).stalled('2026-01-01T00:02:00.000Z', 100);

    expect(stalled).toEqual([{ workspaceId: 'ws-a', sourceId: lapsed.id, jobId: jobs[0]!.job_id }]);
  });
});
