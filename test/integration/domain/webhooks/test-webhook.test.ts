import { beforeAll, describe, expect, it } from 'vitest';
import { createWebhook } from '../../../../shared/domain/webhooks/create-webhook';
import { testWebhook } from '../../../../shared/domain/webhooks/test-webhook';
import { input, NOW, refusal, webhookStores } from './webhook-stores';

describe('testWebhook', () => {
  let stores: Awaited<ReturnType<typeof webhookStores>>;

  beforeAll(async () => {
    stores = await webhookStores();
  });

  it('stores a pending ping delivery for the endpoint and queues its first attempt', async () => {
    // Arrange
    const { deps, admin, deliveries, queued } = stores.setup();
    const created = await createWebhook(deps, admin, input);

    // Act
    const delivery = await testWebhook(deps, created.id);

    // Assert
    expect(delivery).toMatchObject({ webhook_id: created.id, type: 'ping', state: 'pending', attempts: 0, created_at: NOW.toISOString() });
    expect(delivery).not.toHaveProperty('payload');
    const stored = (await deliveries.get(delivery.id))!;
    expect(JSON.parse(stored.payload)).toEqual({ id: stored.event_id, type: 'ping', created_at: NOW.toISOString(), workspace_id: deps.workspaceId, data: { webhook_id: created.id } });
    expect(await queued()).toEqual([{ workspace_id: deps.workspaceId, webhook_id: created.id, delivery_id: delivery.id, attempts: 0 }]);
  });

  it('pings an endpoint that is turned off', async () => {
    // Arrange
    const { deps, admin, queued } = stores.setup();
    const created = await createWebhook(deps, admin, { ...input, active: false });

    // Act
    const delivery = await testWebhook(deps, created.id);

    // Assert
    expect(delivery.type).toBe('ping');
    expect(await queued()).toHaveLength(1);
  });

  it('answers NOT_FOUND for an unknown id, queueing nothing', async () => {
    // Arrange
    const { deps, queued } = stores.setup();

    // Act
    const error = await refusal(testWebhook(deps, 'wh-missing'));

    // Assert
    expect({ code: error.code, details: error.details }).toEqual({ code: 'NOT_FOUND', details: { resource: 'Webhook', id: 'wh-missing' } });
    expect(await queued()).toEqual([]);
  });

  it("answers NOT_FOUND for another workspace's endpoint, queueing nothing", async () => {
    // Arrange
    const theirs = stores.setup();
    const created = await createWebhook(theirs.deps, theirs.admin, input);
    const { deps, queued } = stores.setup();

    // Act
    const error = await refusal(testWebhook(deps, created.id));

    // Assert
    expect(error.code).toBe('NOT_FOUND');
    expect([...(await queued()), ...(await theirs.queued())]).toEqual([]);
  });
});
