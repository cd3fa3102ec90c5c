import { describe, expect, it } from 'vitest';
import type { ChangeLedger, ItemChange } from '../../../../shared/domain/changes/ports';
import type { EventHub, ServerEvent } from '../../../../shared/domain/events/ports';
import type { Connection, ConnectionSender } from '../../../../shared/domain/connections/ports';
import { publishChanges, type PublishChangesDeps } from '../../../../shared/domain/events/publish-changes';
import type { Notification } from '../../../../shared/domain/notifications/notification';
import type { OcrQueueCounters } from '../../../../shared/domain/ocr/jobs';
import type { SyncJob } from '../../../../shared/domain/sources/sync-job';
import { aDocumentRecord, aSyncJob } from '../../../support/builders';

const at = '2026-11-26T10:00:00.000Z';

const created = (sequence: string): ItemChange => {
  const document = aDocumentRecord({ id: `doc-${sequence}`, title: `Doc ${sequence}` });
  return { id: `event-${sequence}`, sequence, at, entity: 'document', workspaceId: 'ws-1', documentId: document.id, old: null, new: document };
};
/** A notification inserted; `workspaceId` null as an item written before items recorded their owner's workspace. */
const notified = (sequence: string, userId: string, workspaceId: string | null = null): ItemChange => {
  const notification: Notification = { id: `n-${sequence}`, type: 'ocr_failed', title: 'OCR failed', message: 'no', read: false, created_at: at, data: { document_id: 'd' } };
  return { id: `event-${sequence}`, sequence, at, entity: 'notification', userId, notificationId: notification.id, workspaceId, old: null, new: notification };
};

const queuedJob = aSyncJob('source-1', { job_id: 'job-1' });
const running = (counts: Partial<SyncJob>): SyncJob => ({ ...queuedJob, state: 'running', ...counts });
const synced = (sequence: string, old: SyncJob | null, next: SyncJob | null): ItemChange => ({
  id: `event-${sequence}`,
  sequence,
  at,
  entity: 'sync_job',
  workspaceId: 'ws-1',
  sourceId: 'source-1',
  jobId: 'job-1',
  old,
  new: next,
});
const counters = (pending: number, processing: number): OcrQueueCounters => ({ pending, processing, failed: 0 });
const queueMoved = (sequence: string, old: OcrQueueCounters, next: OcrQueueCounters): ItemChange => ({
  id: `event-${sequence}`,
  sequence,
  at,
  entity: 'ocr_queue_counters',
  workspaceId: 'ws-1',
  old,
  new: next,
});
const connection: Connection = { id: 'conn-1', userId: 'u-1', workspaceId: 'ws-1', subscriptions: null, connectedAt: at };
const connectionChange = (sequence: string, old: Connection, next: Connection): ItemChange => ({
  id: `event-${sequence}`,
  sequence,
  at,
  entity: 'connection',
  connectionId: 'conn-1',
  old,
  new: next,
});
const ended = (sequence: string) => connectionChange(sequence, connection, { ...connection, ended: 'logout' });

/** A hub and a connection sender that record what they are given, and a ledger in memory. */
function deps(overrides: Partial<PublishChangesDeps> = {}) {
  const published: { workspaceId: string; event: ServerEvent }[] = [];
  const sent: { connectionId: string; message: unknown }[] = [];
  const closed: string[] = [];
  const connectionSender: ConnectionSender = {
    send: (connectionId, message) => {
      sent.push({ connectionId, message: JSON.parse(message) });
      return Promise.resolve('sent');
    },
    close: (connectionId) => {
      closed.push(connectionId);
      return Promise.resolve();
    },
  };
  const hub: EventHub = {
    forWorkspace: (workspaceId) => ({
      publish: (event) => {
        published.push({ workspaceId, event });
        return Promise.resolve();
      },
    }),
  };
  const seen = new Set<string>();
  const ledger: ChangeLedger = {
    firstDeliveries: (consumer, ids) => {
      const fresh = new Set(ids.filter((id) => !seen.has(`${consumer}/${id}`)));
      for (const id of fresh) seen.add(`${consumer}/${id}`);
      return Promise.resolve(fresh);
    },
  };
  const all: PublishChangesDeps = { hub, connectionSender, ledger, workspaceOfUser: () => Promise.resolve('ws-1'), completedOn: () => Promise.resolve(0), ...overrides };
  return { all, published, sent, closed };
}

describe('publishing the events of a batch of changes', () => {
  it('publishes the events of each change in the order of the changes', async () => {
    const { all, published } = deps();

    const outcome = await publishChanges(all, [created('1'), created('2')]);

    expect(outcome).toEqual({});
    expect(published.map(({ event }) => event.data)).toMatchObject([{ document_id: 'doc-1' }, { document_id: 'doc-2' }]);
  });

  it('publishes a change delivered a second time only once', async () => {
    const { all, published } = deps();
    await publishChanges(all, [created('1')]);

    await publishChanges(all, [created('1')]);

    expect(published).toHaveLength(1);
  });

  it('records the changes of a batch that call for something in the ledger in one call', async () => {
    const calls: string[][] = [];
    const { all } = deps();
    const ledger = all.ledger;
    all.ledger = { firstDeliveries: (consumer, ids) => (calls.push([...ids]), ledger.firstDeliveries(consumer, ids)) };
    const leaseLetGo = synced('3', running({ new: 1 }), running({ new: 1 }));

    await publishChanges(all, [created('1'), notified('2', 'u-1'), leaseLetGo]);

    expect(calls).toEqual([['event-1', 'event-2']]);
  });

  it('stops at a change whose reads fail, reports it, and publishes nothing from it on', async () => {
    const { all, published } = deps({ workspaceOfUser: () => Promise.reject(new Error('the table is unavailable')) });

    const outcome = await publishChanges(all, [created('1'), notified('2', 'u-1'), created('3')]);

    expect(outcome).toEqual({ failedAt: '2' });
    expect(published.map(({ event }) => event.type)).toEqual(['document_created']);
  });

  it('publishes a change whose reads failed once it is delivered again', async () => {
    let failing = true;
    const { all, published } = deps({ workspaceOfUser: () => (failing ? Promise.reject(new Error('unavailable')) : Promise.resolve('ws-9')) });
    await publishChanges(all, [notified('2', 'u-1')]);
    failing = false;

    await publishChanges(all, [notified('2', 'u-1')]);

    expect(published).toEqual([{ workspaceId: 'ws-9', event: { type: 'notification', data: { id: 'n-2', type: 'ocr_failed', title: 'OCR failed', message: 'no' } } }]);
  });

  it('addresses a notification by the workspace its item records, without looking its user up', async () => {
    const { all, published } = deps({ workspaceOfUser: () => Promise.reject(new Error('the user was read')) });

    const outcome = await publishChanges(all, [notified('1', 'u-1', 'ws-7')]);

    expect(outcome).toEqual({});
    expect(published).toEqual([{ workspaceId: 'ws-7', event: { type: 'notification', data: { id: 'n-1', type: 'ocr_failed', title: 'OCR failed', message: 'no' } } }]);
  });

  it('drops a notification of a user who no longer exists', async () => {
    const { all, published } = deps({ workspaceOfUser: () => Promise.resolve(null) });

    expect(await publishChanges(all, [notified('1', 'gone')])).toEqual({});
    expect(published).toEqual([]);
  });

  it('publishes only the latest progress of a sync job whose changes share a batch', async () => {
    const { all, published } = deps();
    const one = running({ new: 1, total: 3, current_file: 'a.pdf' });
    const two = running({ new: 2, total: 3, current_file: 'b.pdf' });

    await publishChanges(all, [synced('1', queuedJob, running({})), synced('2', running({}), one), created('3'), synced('4', one, two)]);

    expect(published.map(({ event }) => event)).toEqual([
      { type: 'document_created', data: expect.objectContaining({ document_id: 'doc-3' }) },
      { type: 'sync_progress', data: { source_id: 'source-1', processed: 2, total: 3, current_file: 'b.pdf' } },
    ]);
  });

  it('publishes progress made earlier in the batch even when the job last only let its lease go', async () => {
    const { all, published } = deps();
    const one = running({ new: 1, total: 3, current_file: 'a.pdf' });

    await publishChanges(all, [synced('1', running({}), one), synced('2', one, { ...one })]);

    expect(published.map(({ event }) => event.data)).toEqual([{ source_id: 'source-1', processed: 1, total: 3, current_file: 'a.pdf' }]);
  });

  it('publishes one queue_status with the latest counters for the counter changes of a batch, reading today\'s completions once', async () => {
    let reads = 0;
    const { all, published } = deps({ completedOn: () => Promise.resolve(++reads * 10) });

    await publishChanges(all, [queueMoved('1', counters(0, 0), counters(1, 0)), created('2'), queueMoved('3', counters(1, 0), counters(2, 0)), queueMoved('4', counters(2, 0), counters(1, 1))]);

    expect(published.map(({ event }) => event)).toEqual([
      { type: 'document_created', data: expect.objectContaining({ document_id: 'doc-2' }) },
      { type: 'queue_status', data: { pending: 1, processing: 1, completed: 10 } },
    ]);
  });

  it('reports the queue when its counters moved within a batch and came back to where they were', async () => {
    const { all, published } = deps({ completedOn: () => Promise.resolve(7) });

    await publishChanges(all, [queueMoved('1', counters(0, 1), counters(0, 0)), queueMoved('2', counters(0, 0), counters(0, 1))]);

    expect(published.map(({ event }) => event.data)).toEqual([{ pending: 0, processing: 1, completed: 7 }]);
  });

  it('retries a failed sync job from its first change in the batch', async () => {
    const { all } = deps({ ledger: { firstDeliveries: () => Promise.reject(new Error('the table is unavailable')) } });

    const outcome = await publishChanges(all, [synced('1', queuedJob, running({ new: 1 })), synced('2', running({ new: 1 }), running({ new: 2 }))]);

    expect(outcome).toEqual({ failedAt: '1' });
  });

  it('sends a connection marked ended the UNAUTHORIZED error with its reason, then closes it', async () => {
    const { all, sent, closed, published } = deps();

    expect(await publishChanges(all, [ended('1')])).toEqual({});

    expect(sent).toEqual([{ connectionId: 'conn-1', message: { type: 'error', data: { code: 'UNAUTHORIZED', message: expect.any(String), details: { reason: 'logout' } } } }]);
    expect(closed).toEqual(['conn-1']);
    expect(published).toEqual([]);
  });

  it('ends a connection once when its change is delivered twice', async () => {
    const { all, sent, closed } = deps();
    await publishChanges(all, [ended('1')]);

    await publishChanges(all, [ended('1')]);

    expect(sent).toHaveLength(1);
    expect(closed).toEqual(['conn-1']);
  });

  it('leaves alone a connection record written again after it ended', async () => {
    const { all, sent } = deps();
    const alreadyEnded = { ...connection, ended: 'logout' as const };

    await publishChanges(all, [connectionChange('1', alreadyEnded, { ...alreadyEnded, subscriptions: ['notification'] })]);

    expect(sent).toEqual([]);
  });
});
