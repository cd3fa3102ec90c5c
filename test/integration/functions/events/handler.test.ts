import { describe, expect, it } from 'vitest';
import type { DocumentRecord } from '../../../../shared/domain/documents/document';
import { newOcrJob } from '../../../../shared/domain/ocr/jobs';
import { consumers } from '../../../support/change-consumers';
import { until } from '../../../support/until';
import { aDocumentRecord, aUser, aSourceRecord, aSyncJob } from '../../../support/builders';
import type { SyncOutcome } from '../../../../shared/domain/sources/ports';
import { endSessions, sessionEndedMessage } from '../../../../shared/domain/connections/sessions';

const withJob = (document: DocumentRecord) => newOcrJob(document, 'normal', document.created_at);
const now = () => new Date().toISOString();
const claimOf = (documentId: string) => ({ documentId, run: 1, priority: 'normal' as const });
const completion = (text: string) => ({ text, confidence: 0.9, pages: 1, processingTime: 1, pagesByEngine: { tesseract: 1 }, content: { text }, readSha256: aDocumentRecord().sha256 });

describe('the events consumer on the table stream', () => {
  it('announces a created document to the workspace', async () => {
    const c = await consumers();
    const document = aDocumentRecord({ title: 'Welcome pack' });

    await c.documents.create(document);

    await until(() => c.eventsOf('document_created').length === 1, 20_000, 'document_created is published');
    expect(c.eventsOf('document_created')).toEqual([
      { workspaceId: c.workspaceId, audience: 'workspace', event: { type: 'document_created', data: { document_id: document.id, title: 'Welcome pack', source: 'upload' } } },
    ]);
  });

  it('carries the changed fields in document_updated', async () => {
    const c = await consumers();
    const document = aDocumentRecord({ title: 'Notes' });
    await c.documents.create(document);

    await c.documents.update(document.id, { title: 'Meeting notes', metadata: { room: 'B2' } }, now());

    await until(() => c.eventsOf('document_updated').length === 1, 20_000, 'document_updated is published');
    expect(c.eventsOf('document_updated')[0]).toEqual({
      workspaceId: c.workspaceId,
      audience: 'workspace',
      event: { type: 'document_updated', data: { document_id: document.id, changes: { title: 'Meeting notes', metadata: { room: 'B2' } } } },
    });
  });

  it('follows an OCR job with ocr_progress to its creator and queue_status to the workspace', async () => {
    const c = await consumers();
    const document = aDocumentRecord({ title: 'Scan', created_by: 'uploader-1' });
    await c.documents.create(document, withJob(document));
    await until(() => c.eventsOf('queue_status').length === 1, 20_000, 'the new job is counted');

    // Each step is awaited: the counter changes of a workspace that share a batch are reported once, at their latest.
    await c.ocrJobs.claim(claimOf(document.id), now(), now());
    await until(() => c.eventsOf('queue_status').length === 2, 20_000, 'the job taken is counted');
    await c.ocrJobs.heartbeat(document.id, 1, 50, 2, now());
    await c.ocrJobs.complete(document.id, 1, completion('two pages'), now());

    await until(() => c.eventsOf('ocr_progress').length === 3 && c.eventsOf('queue_status').length === 3, 20_000, 'the run is reported to its end');
    expect(c.eventsOf('ocr_progress').map(({ event, audience }) => ({ data: event.data, audience }))).toEqual([
      { data: { document_id: document.id, progress: 0, status: 'processing' }, audience: { userId: 'uploader-1' } },
      { data: { document_id: document.id, progress: 50, status: 'processing' }, audience: { userId: 'uploader-1' } },
      { data: { document_id: document.id, progress: 100, status: 'completed' }, audience: { userId: 'uploader-1' } },
    ]);
    // pending and processing are the counters each change stored; completed is read when the event is published.
    const statuses = c.eventsOf('queue_status');
    expect(statuses.map(({ event, audience }) => ({ data: event.data, audience }))).toMatchObject([
      { data: { pending: 1, processing: 0 }, audience: 'workspace' },
      { data: { pending: 0, processing: 1 }, audience: 'workspace' },
      { data: { pending: 0, processing: 0, completed: 1 }, audience: 'workspace' },
    ]);
  });

  it('pushes a new notification to its user, in the user workspace', async () => {
    const c = await consumers();
    const user = aUser({ workspace_id: c.workspaceId });
    await c.users.create(user);

    await c.notifications.create({ userId: user.id, workspaceId: c.workspaceId }, {
      id: crypto.randomUUID(),
      type: 'ocr_completed',
      title: 'OCR completed',
      message: '"Scan" is searchable',
      read: false,
      created_at: now(),
      data: { document_id: crypto.randomUUID() },
    });

    await until(() => c.eventsOf('notification').length === 1, 20_000, 'the notification is published');
    expect(c.eventsOf('notification')[0]).toMatchObject({ workspaceId: c.workspaceId, audience: { userId: user.id }, event: { data: { title: 'OCR completed' } } });
  });
});

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
