import { describe, expect, it } from 'vitest';
import type { ChangeLedger, ItemChange } from '../../../shared/domain/changes/ports';
import type { EventHub, ServerEvent } from '../../../shared/domain/events/ports';
import { publishChanges, type PublishChangesDeps } from '../../../shared/domain/events/publish-changes';
import type { Notification } from '../../../shared/domain/notifications/notification';
import { aDocumentRecord } from '../../support/builders';

const at = '2026-11-26T10:00:00.000Z';

const created = (sequence: string): ItemChange => {
  const document = aDocumentRecord({ id: `doc-${sequence}`, title: `Doc ${sequence}` });
  return { id: `event-${sequence}`, sequence, at, entity: 'document', workspaceId: 'ws-1', documentId: document.id, old: null, new: document };
};
const notified = (sequence: string, userId: string): ItemChange => {
  const notification: Notification = { id: `n-${sequence}`, type: 'ocr_failed', title: 'OCR failed', message: 'no', read: false, created_at: at, data: { document_id: 'd' } };
  return { id: `event-${sequence}`, sequence, at, entity: 'notification', userId, notificationId: notification.id, old: null, new: notification };
};

/** A hub that records what it is given, and a ledger in memory. */
function deps(overrides: Partial<PublishChangesDeps> = {}) {
  const published: { workspaceId: string; event: ServerEvent }[] = [];
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
    firstDelivery: (consumer, id) => Promise.resolve(!seen.has(`${consumer}/${id}`) && Boolean(seen.add(`${consumer}/${id}`))),
  };
  const all: PublishChangesDeps = { hub, ledger, workspaceOfUser: () => Promise.resolve('ws-1'), completedOn: () => Promise.resolve(0), ...overrides };
  return { all, published };
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

  it('drops a notification of a user who no longer exists', async () => {
    const { all, published } = deps({ workspaceOfUser: () => Promise.resolve(null) });

    expect(await publishChanges(all, [notified('1', 'gone')])).toEqual({});
    expect(published).toEqual([]);
  });
});
