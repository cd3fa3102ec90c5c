import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { DynamoSourceRepository } from '../../../../shared/adapters/aws/dynamodb/source-repository';
import { DynamoSourceSchedule } from '../../../../shared/adapters/aws/dynamodb/source-schedule';
import { DynamoSyncStateStore } from '../../../../shared/adapters/aws/dynamodb/sync-state-store';
import { ensureQueueWithDlq } from '../../../../shared/adapters/aws/provisioning';
import { SqsSyncQueue } from '../../../../shared/adapters/aws/sqs/sync-queue';
import type { Clock } from '../../../../shared/domain/clock';
import type { SyncStepMessage } from '../../../../shared/domain/sources/ports';
import { scheduleSyncs } from '../../../../shared/domain/sources/schedule-syncs';
import type { SourceRecord } from '../../../../shared/domain/sources/source';
import type { SyncJob } from '../../../../shared/domain/sources/sync-job';
import { freshTable, testClients, uniqueName } from '../../../support/aws-resources';
import { aSourceRecord, aSyncJob } from '../../../support/builders';

const NOW = '2026-03-01T12:00:00.000Z';
const at = (offsetSeconds: number) => new Date(Date.parse(NOW) + offsetSeconds * 1000).toISOString();
const clock: Clock = { now: () => new Date(NOW) };
/** How long after its lease ended a sync counts as stalled, in these tests. */
const STALLED_AFTER = 300;

const aSource = (overrides: Partial<SourceRecord> = {}): SourceRecord =>
  aSourceRecord({ last_sync: at(-3600), next_sync: at(-60), last_full_walk: at(-3600), created_at: at(-86_400), updated_at: at(-86_400), ...overrides });

const aJob = (sourceId: string, overrides: Partial<SyncJob> = {}): SyncJob =>
  aSyncJob(sourceId, { trigger: 'schedule', started_by: null, full_walk: false, queued_at: at(-3600), ...overrides });

/** A table and a sync queue of their own, the schedule's deps on them, and the queue's messages read back. */
async function world() {
  const { sqs } = testClients();
  const { db, tableName } = await freshTable();
  const { queueUrl } = await ensureQueueWithDlq(sqs, uniqueName('sync'), { visibilityTimeoutSeconds: 30 });
  const sources = (workspaceId: string) => new DynamoSourceRepository(db, tableName, workspaceId);
  const syncState = (workspaceId: string) => new DynamoSyncStateStore(db, tableName, workspaceId);
  const deps = {
    schedule: new DynamoSourceSchedule(db, tableName),
    syncQueue: new SqsSyncQueue(sqs, queueUrl),
    clock,
    inWorkspace: (workspaceId: string) => ({ workspaceId, sources: sources(workspaceId), syncState: syncState(workspaceId) }),
  };
  /** Every message on the queue now (each received once: the visibility timeout outlasts the test). */
  const messages = async (): Promise<SyncStepMessage[]> => {
    const received: SyncStepMessage[] = [];
    for (;;) {
      const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
      if (!Messages.length) return received;
      received.push(...Messages.map((message) => JSON.parse(message.Body!) as SyncStepMessage));
    }
  };
  /** A stored source in a workspace of its own unless one is given. */
  const storedSource = async (overrides: Partial<SourceRecord> = {}, workspaceId: string = crypto.randomUUID()) => {
    const source = aSource(overrides);
    await sources(workspaceId).create(source);
    return { workspaceId, source };
  };
  /** A stored source with an unfinished sync, leased until `leaseUntil` (never leased if null). */
  const syncingSource = async (leaseUntil: string | null) => {
    const { workspaceId, source } = await storedSource({ next_sync: at(3600) });
    const job = aJob(source.id);
    await sources(workspaceId).startJob(job);
    if (leaseUntil) expect(await sources(workspaceId).leaseJob(source.id, job.job_id, leaseUntil, job.queued_at)).not.toBeNull();
    return { workspaceId, source, job };
  };
  const run = (options: { takeOverLeases?: boolean } = {}) =>
    scheduleSyncs(deps, { stalledAfterSeconds: STALLED_AFTER, takeOverLeases: options.takeOverLeases ?? false });
  return { sources, syncState, messages, storedSource, syncingSource, run };
}

describe('scheduleSyncs on DynamoDB and SQS', () => {
  it('starts the sync of an enabled source whose next sync is due: recorded, queued, its root the first work', async () => {
    // Arrange
    const { sources, syncState, messages, storedSource, run } = await world();
    const { workspaceId, source } = await storedSource({ next_sync: at(-60) });

    // Act
    const outcome = await run();

    // Assert
    const stored = await sources(workspaceId).get(source.id);
    const jobId = stored!.current_job_id!;
    expect(outcome).toEqual({ started: 1, resumed: 0 });
    expect(stored).toMatchObject({ current_job_id: expect.any(String), last_job_id: jobId });
    expect(await sources(workspaceId).getJob(source.id, jobId)).toMatchObject({ state: 'queued', trigger: 'schedule', started_by: null, queued_at: NOW });
    expect(await syncState(workspaceId).work(jobId, 'directory', 10)).toEqual([{ kind: 'directory', path: '', etag: null }]);
    expect(await messages()).toEqual([{ workspace_id: workspaceId, source_id: source.id, job_id: jobId }]);
  });

  it('starts a source whose next sync is exactly now', async () => {
    // Arrange
    const { sources, storedSource, run } = await world();
    const { workspaceId, source } = await storedSource({ next_sync: NOW });

    // Act
    const outcome = await run();

    // Assert
    expect(outcome.started).toBe(1);
    expect((await sources(workspaceId).get(source.id))?.current_job_id).not.toBeNull();
  });

  it('does not start a disabled source, however overdue', async () => {
    // Arrange
    const { sources, messages, storedSource, run } = await world();
    const { workspaceId, source } = await storedSource({ enabled: false, next_sync: at(-86_400) });

    // Act
    const outcome = await run();

    // Assert
    expect(outcome).toEqual({ started: 0, resumed: 0 });
    expect((await sources(workspaceId).get(source.id))?.current_job_id).toBeNull();
    expect(await messages()).toEqual([]);
  });

  it('does not start a source whose next sync is later', async () => {
    // Arrange
    const { sources, messages, storedSource, run } = await world();
    const { workspaceId, source } = await storedSource({ next_sync: at(1) });

    // Act
    const outcome = await run();

    // Assert
    expect(outcome).toEqual({ started: 0, resumed: 0 });
    expect((await sources(workspaceId).get(source.id))?.current_job_id).toBeNull();
    expect(await messages()).toEqual([]);
  });

  it('skips without error a due source that is syncing already, counting it neither started nor resumed', async () => {
    // Arrange: due, with a sync queued a minute ago (not stalled).
    const { sources, messages, storedSource, run } = await world();
    const { workspaceId, source } = await storedSource({ next_sync: at(-60) });
    const running = aJob(source.id, { queued_at: at(-60) });
    await sources(workspaceId).startJob(running);

    // Act
    const outcome = await run();

    // Assert
    expect(outcome).toEqual({ started: 0, resumed: 0 });
    expect((await sources(workspaceId).get(source.id))?.current_job_id).toBe(running.job_id);
    expect(await messages()).toEqual([]);
  });

  it('starts the due sources of every workspace', async () => {
    // Arrange
    const { messages, storedSource, run } = await world();
    const first = await storedSource({ next_sync: at(-120) });
    const second = await storedSource({ next_sync: at(-60) });

    // Act
    const outcome = await run();

    // Assert
    expect(outcome.started).toBe(2);
    const queued = await messages();
    expect(queued.map((message) => [message.workspace_id, message.source_id]).sort()).toEqual(
      [
        [first.workspaceId, first.source.id],
        [second.workspaceId, second.source.id],
      ].sort(),
    );
  });

  it('queues again a sync whose lease ended longer ago than stalledAfterSeconds', async () => {
    // Arrange
    const { messages, syncingSource, run } = await world();
    const { workspaceId, source, job } = await syncingSource(at(-STALLED_AFTER - 60));

    // Act
    const outcome = await run();

    // Assert
    expect(outcome).toEqual({ started: 0, resumed: 1 });
    expect(await messages()).toEqual([{ workspace_id: workspaceId, source_id: source.id, job_id: job.job_id }]);
  });

  it('does not queue again a sync whose lease is still running', async () => {
    // Arrange
    const { messages, syncingSource, run } = await world();
    await syncingSource(at(60));

    // Act
    const outcome = await run();

    // Assert
    expect(outcome).toEqual({ started: 0, resumed: 0 });
    expect(await messages()).toEqual([]);
  });

  it('does not queue again a sync whose lease ended less than stalledAfterSeconds ago', async () => {
    // Arrange
    const { messages, syncingSource, run } = await world();
    await syncingSource(at(-STALLED_AFTER + 60));

    // Act
    const outcome = await run();

    // Assert
    expect(outcome).toEqual({ started: 0, resumed: 0 });
    expect(await messages()).toEqual([]);
  });

  it('resumes, when taking over leases, an unfinished sync whose lease is still running', async () => {
    // Arrange
    const { messages, syncingSource, run } = await world();
    const { workspaceId, source, job } = await syncingSource(at(3600));

    // Act
    const outcome = await run({ takeOverLeases: true });

    // Assert
    expect(outcome).toEqual({ started: 0, resumed: 1 });
    expect(await messages()).toEqual([{ workspace_id: workspaceId, source_id: source.id, job_id: job.job_id }]);
  });

  it('releases, when taking over leases, the lease of the sync it resumes, so that a worker leases it at once', async () => {
    // Arrange
    const { sources, syncingSource, run } = await world();
    const { workspaceId, source, job } = await syncingSource(at(3600));

    // Act
    await run({ takeOverLeases: true });

    // Assert
    expect(await sources(workspaceId).leaseJob(source.id, job.job_id, at(900), NOW)).toMatchObject({ job_id: job.job_id, state: 'running' });
  });

  it('queues a due source once when taking over leases: the sync it starts is not also resumed', async () => {
    // Arrange
    const { messages, storedSource, run } = await world();
    const { workspaceId, source } = await storedSource({ next_sync: at(-60) });

    // Act
    const outcome = await run({ takeOverLeases: true });

    // Assert
    expect(outcome).toEqual({ started: 1, resumed: 0 });
    expect(await messages()).toEqual([{ workspace_id: workspaceId, source_id: source.id, job_id: expect.any(String) }]);
  });
});
