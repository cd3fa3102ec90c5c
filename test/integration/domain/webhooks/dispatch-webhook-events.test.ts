import { describe, expect, it } from 'vitest';
import type { ItemChange } from '../../../../shared/domain/changes/ports';
import type { DocumentRecord } from '../../../../shared/domain/documents/document';
import { dispatchWebhookEvents, payloadOf } from '../../../../shared/domain/webhooks/dispatch-webhook-events';
import { MAX_PAYLOAD_BYTES, type WebhookEventType, type WebhookRecord } from '../../../../shared/domain/webhooks/ports';
import { deliveryIdOf, webhookEventsOf, type WebhookEvent } from '../../../../shared/domain/webhooks/webhook-events';
import { aDocumentRecord } from '../../../support/builders';
import { MemoryDeliveries, MemoryWebhooks, RecordingDeliveryQueue } from './fake-webhooks';

const AT = '2026-03-01T10:00:00.000Z';

const anEndpoint = (id: string, overrides: Partial<WebhookRecord> = {}): WebhookRecord => ({
  id,
  workspace_id: 'w-1',
  url: `https://hooks.example.com/${id}`,
  events: ['document.uploaded'],
  description: null,
  active: true,
  disabled_reason: null,
  failing_since: null,
  secrets: [{ sealed: 'sealed', created_at: AT, expires_at: null }],
  created_by: 'admin',
  created_at: AT,
  updated_at: AT,
  ...overrides,
});

const uploaded = (sequence: string, document: DocumentRecord = aDocumentRecord({ id: `doc-${sequence}` })): ItemChange => ({
  id: `chg-${sequence}`,
  sequence,
  at: AT,
  entity: 'document',
  workspaceId: 'w-1',
  documentId: document.id,
  old: null,
  new: document,
});

const setup = (...endpoints: WebhookRecord[]) => {
  const webhooks = new MemoryWebhooks();
  for (const endpoint of endpoints) webhooks.byId.set(endpoint.id, endpoint);
  const deliveries = new MemoryDeliveries();
  const deliveryQueue = new RecordingDeliveryQueue();
  const deps = { inWorkspace: () => ({ webhooks, deliveries }), deliveryQueue };
  return { webhooks, deliveries, deliveryQueue, deps };
};

describe('dispatchWebhookEvents', () => {
  it('stores one pending delivery per active subscribed endpoint and queues it with attempts 0', async () => {
    // Arrange
    const { deliveries, deliveryQueue, deps } = setup(
      anEndpoint('wh-a'),
      anEndpoint('wh-b', { events: ['ocr.completed', 'document.uploaded'] }),
      anEndpoint('wh-off', { active: false }),
      anEndpoint('wh-other', { events: ['document.deleted'] }),
    );
    const change = uploaded('1');
    const [event] = webhookEventsOf(change);

    // Act
    const outcome = await dispatchWebhookEvents(deps, [change]);

    // Assert
    expect(outcome).toEqual({});
    expect([...deliveries.byId.values()].map((d) => d.webhook_id).sort()).toEqual(['wh-a', 'wh-b']);
    expect(deliveries.byId.get(deliveryIdOf(event!.id, 'wh-a'))).toMatchObject({
      event_id: event!.id,
      type: 'document.uploaded',
      state: 'pending',
      attempts: 0,
      workspace_id: 'w-1',
      next_attempt_at: AT,
      payload: payloadOf(event!),
    });
    expect(deliveryQueue.sent).toEqual(
      expect.arrayContaining([
        { message: { workspace_id: 'w-1', webhook_id: 'wh-a', delivery_id: deliveryIdOf(event!.id, 'wh-a'), attempts: 0 }, delaySeconds: undefined },
        { message: { workspace_id: 'w-1', webhook_id: 'wh-b', delivery_id: deliveryIdOf(event!.id, 'wh-b'), attempts: 0 }, delaySeconds: undefined },
      ]),
    );
    expect(deliveryQueue.sent).toHaveLength(2);
  });

  it('stores and queues nothing for a change no endpoint subscribed to', async () => {
    // Arrange
    const { deliveries, deliveryQueue, deps } = setup(anEndpoint('wh-a', { events: ['ocr.failed'] }));

    // Act
    await dispatchWebhookEvents(deps, [uploaded('1')]);

    // Assert
    expect(deliveries.byId.size).toBe(0);
    expect(deliveryQueue.sent).toEqual([]);
  });

  it('creates no second delivery for a change delivered twice, and queues the stored one again while it is unattempted', async () => {
    // Arrange
    const { deliveries, deliveryQueue, deps } = setup(anEndpoint('wh-a'));
    const change = uploaded('1');
    await dispatchWebhookEvents(deps, [change]);

    // Act
    await dispatchWebhookEvents(deps, [change]);

    // Assert
    expect(deliveries.byId.size).toBe(1);
    expect(deliveryQueue.messages).toHaveLength(2);
    expect(deliveryQueue.messages[1]).toEqual(deliveryQueue.messages[0]);
  });

  it('queues nothing new for a change delivered again once its delivery was attempted', async () => {
    // Arrange
    const { deliveries, deliveryQueue, deps } = setup(anEndpoint('wh-a'));
    const change = uploaded('1');
    await dispatchWebhookEvents(deps, [change]);
    const [stored] = deliveries.byId.values();
    stored!.attempts = 1;

    // Act
    await dispatchWebhookEvents(deps, [change]);

    // Assert
    expect(deliveries.byId.size).toBe(1);
    expect(deliveryQueue.messages).toHaveLength(1);
  });

  it("returns the failing change's sequence when the store fails, having dispatched the changes before it", async () => {
    // Arrange
    const { deliveries, deliveryQueue, deps } = setup(anEndpoint('wh-a'));
    const originalCreate = deliveries.createIfAbsent.bind(deliveries);
    let calls = 0;
    deliveries.createIfAbsent = async (delivery) => {
      calls += 1;
      if (calls === 2) throw new Error('throttled');
      return originalCreate(delivery);
    };

    // Act
    const outcome = await dispatchWebhookEvents(deps, [uploaded('11'), uploaded('12'), uploaded('13')]);

    // Assert
    expect(outcome).toEqual({ failedAt: '12' });
    expect(deliveryQueue.messages).toHaveLength(1);
  });

  it('returns the first change with events as failed when the endpoints cannot be read', async () => {
    // Arrange
    const { webhooks, deps } = setup(anEndpoint('wh-a'));
    webhooks.failing = true;

    // Act
    const outcome = await dispatchWebhookEvents(deps, [uploaded('21'), uploaded('22')]);

    // Assert
    expect(outcome).toEqual({ failedAt: '21' });
  });
});

describe('payloadOf', () => {
  const eventWith = (metadata: DocumentRecord['metadata']): WebhookEvent => ({
    id: 'evt_1',
    type: 'document.uploaded' satisfies WebhookEventType,
    workspace_id: 'w-1',
    created_at: AT,
    data: { document: { id: 'doc-1', title: 'big', metadata } },
  });

  it('sends the event as it is while it fits', () => {
    // Arrange
    const event = eventWith({ customer: 'ACME' });

    // Act
    const payload = JSON.parse(payloadOf(event));

    // Assert
    expect(payload).toEqual(event);
  });

  it(`drops the document's metadata, and says so, when the payload would pass ${MAX_PAYLOAD_BYTES} bytes`, () => {
    // Arrange
    const event = eventWith({ notes: 'x'.repeat(MAX_PAYLOAD_BYTES) });

    // Act
    const payload = payloadOf(event);

    // Assert
    expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    expect(JSON.parse(payload)).toEqual({
      ...event,
      data: { document: { id: 'doc-1', title: 'big', metadata: {} }, metadata_omitted: true },
    });
  });
});
