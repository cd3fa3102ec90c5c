import { describe, expect, it } from 'vitest';
import { createWebhook } from '../../../../shared/domain/webhooks/create-webhook';
import { testWebhook } from '../../../../shared/domain/webhooks/test-webhook';
import { admin, input, NOW, refusal, setup } from './admin-setup';

describe('testWebhook', () => {
  it('stores a pending ping delivery for the endpoint and queues its first attempt', async () => {
    // Arrange
    const { deps, deliveries, deliveryQueue } = setup();
    const created = await createWebhook(deps, admin, input);

    // Act
    const delivery = await testWebhook(deps, created.id);

    // Assert
    expect(delivery).toMatchObject({ webhook_id: created.id, type: 'ping', state: 'pending', attempts: 0, created_at: NOW.toISOString() });
    expect(delivery).not.toHaveProperty('payload');
    const stored = deliveries.byId.get(delivery.id)!;
    expect(JSON.parse(stored.payload)).toEqual({ id: stored.event_id, type: 'ping', created_at: NOW.toISOString(), workspace_id: 'w-1', data: { webhook_id: created.id } });
    expect(deliveryQueue.sent).toEqual([{ message: { workspace_id: 'w-1', webhook_id: created.id, delivery_id: delivery.id, attempts: 0 }, delaySeconds: undefined }]);
  });

  it('pings an endpoint that is turned off', async () => {
    // Arrange
    const { deps, deliveryQueue } = setup();
    const created = await createWebhook(deps, admin, { ...input, active: false });

    // Act
    const delivery = await testWebhook(deps, created.id);

    // Assert
    expect(delivery.type).toBe('ping');
    expect(deliveryQueue.messages).toHaveLength(1);
  });
});

describe('unknown endpoints', () => {
  const operations: [string, (deps: ReturnType<typeof setup>['deps']) => Promise<unknown>][] = [
    ['test', (deps) => testWebhook(deps, 'wh-missing')],
  ];

  it.each(operations)('answers NOT_FOUND to %s of an unknown id, changing nothing', async (_name, operation) => {
    // Arrange
    const { deps, deliveries, deliveryQueue } = setup();

    // Act
    const error = await refusal(operation(deps));

    // Assert
    expect(error.code).toBe('NOT_FOUND');
    expect(error.details).toEqual({ resource: 'Webhook', id: 'wh-missing' });
    expect(deliveries.byId.size).toBe(0);
    expect(deliveryQueue.sent).toEqual([]);
  });
});
