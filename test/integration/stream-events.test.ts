import { describe, expect, it } from 'vitest';
import type { SyncOutcome } from '../../shared/domain/sources/ports';
import { endSessions, sessionEndedMessage } from '../../shared/domain/connections/sessions';
import { consumers } from '../support/change-consumers';
import { until } from '../support/until';
import { aSourceRecord, aSyncJob } from '../support/builders';

const now = () => new Date().toISOString();
const completed = (): SyncOutcome => ({ state: 'completed', finishedAt: now(), failure: null, source: { error: null, last_sync: now(), next_sync: now() } });

/** A source of the workspace with a sync started and leased, as the sync step leaves it before its first file. */
async function runningSync(c: Awaited<ReturnType<typeof consumers>>) {
  const source = aSourceRecord();
  await c.sources.create(source);
  const job = aSyncJob(source.id);
  await c.sources.startJob(job);
  await c.sources.leaseJob(source.id, job.job_id, new Date(Date.now() + 60_000).toISOString(), now());
  return { sourceId: source.id, jobId: job.job_id };
}

describe('sync_progress from the changes of a sync job', () => {
  it('reports each file done, then the end with no current file, to the workspace', async () => {
    const c = await consumers();
    const { sourceId, jobId } = await runningSync(c);
    const progressed = (processed: number) => c.eventsOf('sync_progress').some(({ event }) => event.type === 'sync_progress' && event.data.processed === processed);
    await c.sources.recordProgress(sourceId, jobId, { total: 2 });
    await until(() => c.eventsOf('sync_progress').length === 1, 20_000, 'the walk is reported');
    await c.sources.recordProgress(sourceId, jobId, { counts: { new: 1 }, currentFile: 'a.pdf' });
    await until(() => progressed(1), 20_000, 'the first file is reported');
    await c.sources.recordProgress(sourceId, jobId, { counts: { unchanged: 1 }, currentFile: 'b.pdf' });
    await until(() => progressed(2), 20_000, 'the second file is reported');

    await c.sources.finishJob(sourceId, jobId, completed());

    const end = { source_id: sourceId, processed: 2, total: 2, current_file: '' };
    await until(() => c.eventsOf('sync_progress').some(({ event }) => JSON.stringify(event.data) === JSON.stringify(end)), 20_000, 'the end is reported');
    const events = c.eventsOf('sync_progress');
    expect(events.every(({ workspaceId, audience }) => workspaceId === c.workspaceId && audience === 'workspace')).toBe(true);
    expect(events.map(({ event }) => event.data)).toEqual([
      { source_id: sourceId, processed: 0, total: 2, current_file: '' },
      { source_id: sourceId, processed: 1, total: 2, current_file: 'a.pdf' },
      { source_id: sourceId, processed: 2, total: 2, current_file: 'b.pdf' },
      end,
    ]);
  });

  it('publishes only the latest state of a job whose changes arrive in one batch', async () => {
    const c = await consumers({ poller: { maximumBatchingWindowMs: 1500 } });
    const { sourceId, jobId } = await runningSync(c);
    for (const file of ['a.pdf', 'b.pdf', 'c.pdf']) await c.sources.recordProgress(sourceId, jobId, { counts: { new: 1 }, currentFile: file });

    await until(() => c.eventsOf('sync_progress').length > 0, 20_000, 'the batch is published');

    expect(c.eventsOf('sync_progress').map(({ event }) => event.data)).toEqual([{ source_id: sourceId, processed: 3, total: 3, current_file: 'c.pdf' }]);
  });

  it('publishes the end once when the batch is delivered again', async () => {
    const c = await consumers();
    const { sourceId, jobId } = await runningSync(c);
    await c.sources.recordProgress(sourceId, jobId, { counts: { new: 1 }, currentFile: 'a.pdf' });
    await c.sources.finishJob(sourceId, jobId, completed());
    await until(() => c.eventsOf('sync_progress').some(({ event }) => event.type === 'sync_progress' && event.data.processed === 1 && event.data.current_file === ''), 20_000, 'the end is reported');
    const published = c.published.length;

    const again = await c.events({ Records: [...c.delivered.events] });

    expect(again.batchItemFailures).toEqual([]);
    expect(c.published).toHaveLength(published);
  });
});

describe('a connection whose session a use case ended', () => {
  /** An authenticated connection of a new user of the workspace. */
  async function connected(c: Awaited<ReturnType<typeof consumers>>) {
    const connectionId = crypto.randomUUID();
    const userId = crypto.randomUUID();
    await c.connections.open(connectionId, new Date());
    await c.connections.authenticate(connectionId, { userId, workspaceId: c.workspaceId }, 5, { tokenId: 'token-1', tokenVersion: 0, expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    return { connectionId, userId };
  }

  it('gets the UNAUTHORIZED error with the reason, then is closed', async () => {
    const c = await consumers();
    const { connectionId, userId } = await connected(c);

    await endSessions({ connections: c.connections }, { userId, tokenId: 'token-1' }, 'logout');

    await until(() => c.sender.closed.includes(connectionId), 20_000, 'the connection is closed');
    expect(c.sender.sent).toEqual([{ connectionId, message: JSON.parse(sessionEndedMessage('logout')) }]);
    expect(c.sender.sent[0]!.message).toMatchObject({ type: 'error', data: { code: 'UNAUTHORIZED', details: { reason: 'logout' } } });
  });

  it('is ended once when its change is delivered twice', async () => {
    const c = await consumers();
    const { connectionId, userId } = await connected(c);
    await endSessions({ connections: c.connections }, { userId }, 'user_deleted');
    await until(() => c.sender.closed.includes(connectionId), 20_000, 'the connection is closed');

    const again = await c.events({ Records: [...c.delivered.events] });

    expect(again.batchItemFailures).toEqual([]);
    expect(c.sender.sent).toHaveLength(1);
    expect(c.sender.closed).toEqual([connectionId]);
  });

  it('is left alone while its session lasts', async () => {
    const c = await consumers();
    const { connectionId, userId } = await connected(c);
    await endSessions({ connections: c.connections }, { userId, tokenId: 'another-token' }, 'logout');
    const marker = await connected(c);
    await endSessions({ connections: c.connections }, { userId: marker.userId }, 'logout');

    await until(() => c.sender.closed.includes(marker.connectionId), 20_000, 'the other connection is closed');

    expect(c.sender.closed).not.toContain(connectionId);
  });
});
