import { beforeAll, describe, expect, it } from 'vitest';
import type { ItemChange } from '../../../../shared/domain/changes/ports';
import type { DocumentRecord } from '../../../../shared/domain/documents/document';
import { dispatchWebhookEvents, payloadOf } from '../../../../shared/domain/webhooks/dispatch-webhook-events';
import { MAX_PAYLOAD_BYTES, MAX_WEBHOOKS_PER_WORKSPACE, type WebhookEventType, type WebhookRecord } from '../../../../shared/domain/webhooks/ports';
import { deliveryIdOf, webhookEventsOf, type WebhookEvent } from '../../../../shared/domain/webhooks/webhook-events';
import { aDocumentRecord } from '../../../support/builders';
import { NOW, webhookStores } from './webhook-stores';

const AT = NOW.toISOString();

describe('dispatchWebhookEvents', () => {
  let stores: Awaited<ReturnType<typeof webhookStores>>;

  beforeAll(async () => {
    stores = await webhookStores();
  });

  /** A fresh workspace holding `endpoints` (made from their ids and overrides), and what dispatching to it needs. */
  const setup = async (...endpoints: [string, Partial<WebhookRecord>?][]) => {
    const world = stores.setup();
    const workspaceId = world.deps.workspaceId;
    for (const [id, overrides] of endpoints) {
      await world.webhooks.create(
        {
          id,
          workspace_id: workspaceId,
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
        },
        MAX_WEBHOOKS_PER_WORKSPACE,
      );
    }
    const deps = { inWorkspace: () => ({ webhooks: world.webhooks, deliveries: world.deliveries }), deliveryQueue: stores.deliveryQueue };
    /** A document's upload in this workspace, as the table's change carries it. */
    const uploaded = (sequence: string, document: DocumentRecord = aDocumentRecord({ id: `doc-${sequence}` })): ItemChange => ({
      id: `chg-${sequence}`,
      sequence,
      at: AT,
      entity: 'document',
      workspaceId,
      documentId: document.id,
      old: null,
      new: document,
    });
    /** The deliveries stored for the endpoints. */
    const stored = async () => (await Promise.all(endpoints.map(async ([id]) => (await world.deliveries.list(id, { page: 1, perPage: 50 })).items))).flat();
    return { ...world, workspaceId, deps, uploaded, stored };
  };

  it('stores one pending delivery per active subscribed endpoint and queues it with attempts 0', async () => {
    // Arrange
    const { deps, uploaded, stored, deliveries, queued, workspaceId } = await setup(
      ['wh-a'],
      ['wh-b', { events: ['ocr.completed', 'document.uploaded'] }],
      ['wh-off', { active: false }],
      ['wh-other', { events: ['document.deleted'] }],
    );
    const change = uploaded('1');
    const [event] = webhookEventsOf(change);

    // Act
    const outcome = await dispatchWebhookEvents(deps, [change]);

    // Assert
    expect(outcome).toEqual({});
    expect((await stored()).map((d) => d.webhook_id).sort()).toEqual(['wh-a', 'wh-b']);
    expect(await deliveries.get(deliveryIdOf(event!.id, 'wh-a'))).toMatchObject({
      event_id: event!.id,
      type: 'document.uploaded',
      state: 'pending',
      attempts: 0,
      workspace_id: workspaceId,
      next_attempt_at: AT,
      payload: payloadOf(event!),
    });
    const messages = await queued();
    expect(messages).toEqual(
      expect.arrayContaining([
        { workspace_id: workspaceId, webhook_id: 'wh-a', delivery_id: deliveryIdOf(event!.id, 'wh-a'), attempts: 0 },
        { workspace_id: workspaceId, webhook_id: 'wh-b', delivery_id: deliveryIdOf(event!.id, 'wh-b'), attempts: 0 },
      ]),
    );
    expect(messages).toHaveLength(2);
  });

  it('stores and queues nothing for a change no endpoint subscribed to', async () => {
    // Arrange
    const { deps, uploaded, stored, queued } = await setup(['wh-a', { events: ['ocr.failed'] }]);

    // Act
    await dispatchWebhookEvents(deps, [uploaded('1')]);

    // Assert
    expect(await stored()).toEqual([]);
    expect(await queued()).toEqual([]);
  });

  it('creates no second delivery for a change delivered twice, and queues the stored one again while it is unattempted', async () => {
    // Arrange
    const { deps, uploaded, stored, queued } = await setup(['wh-a']);
    const change = uploaded('1');
    await dispatchWebhookEvents(deps, [change]);

    // Act
    await dispatchWebhookEvents(deps, [change]);

    // Assert
    expect(await stored()).toHaveLength(1);
    const messages = await queued();
    expect(messages).toHaveLength(2);
    expect(messages[1]).toEqual(messages[0]);
  });

  it('queues nothing new for a change delivered again once its delivery was attempted', async () => {
    // Arrange
    const { deps, uploaded, stored, deliveries, queued } = await setup(['wh-a']);
    const change = uploaded('1');
    await dispatchWebhookEvents(deps, [change]);
    const [first] = await stored();
    await deliveries.claim(first!.id, 0, AT, new Date(NOW.getTime() + 30_000).toISOString());
    await queued();

    // Act
    await dispatchWebhookEvents(deps, [change]);

    // Assert
    expect(await stored()).toHaveLength(1);
    expect(await queued()).toEqual([]);
  });

  it("returns the failing change's sequence when the store fails, having dispatched the changes before it", async () => {
    // Arrange
    const { deps, uploaded, deliveries, queued } = await setup(['wh-a']);
    let calls = 0;
    const throttled = {
      ...deps,
      inWorkspace: () => ({
        webhooks: deps.inWorkspace().webhooks,
        deliveries: Object.assign(Object.create(deliveries) as typeof deliveries, {
          createIfAbsent: (delivery: Parameters<typeof deliveries.createIfAbsent>[0]) =>
            ++calls === 2 ? Promise.reject(new Error('throttled')) : deliveries.createIfAbsent(delivery),
        }),
      }),
    };

    // Act
    const outcome = await dispatchWebhookEvents(throttled, [uploaded('11'), uploaded('12'), uploaded('13')]);

    // Assert
    expect(outcome).toEqual({ failedAt: '12' });
    expect(await queued()).toHaveLength(1);
  });

  it('returns the first change with events as failed when the endpoints cannot be read', async () => {
    // Arrange
    const { deps, uploaded, deliveries } = await setup(['wh-a']);
    const unreadable = { ...deps, inWorkspace: () => ({ webhooks: { list: () => Promise.reject(new Error('webhook store unavailable')) } as never, deliveries }) };

    // Act
    const outcome = await dispatchWebhookEvents(unreadable, [uploaded('21'), uploaded('22')]);

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
