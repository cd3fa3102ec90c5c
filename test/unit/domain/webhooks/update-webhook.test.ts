import { describe, expect, it } from 'vitest';
import { createWebhook } from '../../../../shared/domain/webhooks/create-webhook';
import { deleteWebhook, updateWebhook } from '../../../../shared/domain/webhooks/update-webhook';
import { admin, input, LATER, refusal, setup } from './admin-setup';

describe('updateWebhook', () => {
  it('turning an endpoint on again forgets why it was turned off and since when it failed', async () => {
    // Arrange
    const { deps, webhooks, setNow } = setup();
    const created = await createWebhook(deps, admin, input);
    await webhooks.update(created.id, { active: false, disabled_reason: 'failing', failing_since: '2026-02-20T00:00:00.000Z' });
    setNow(LATER);

    // Act
    const updated = await updateWebhook(deps, created.id, { active: true });

    // Assert
    expect(updated).toMatchObject({ active: true, disabled_reason: null, failing_since: null, updated_at: LATER.toISOString() });
    expect(webhooks.byId.get(created.id)).toMatchObject({ active: true, disabled_reason: null, failing_since: null });
  });

  it('changes the url and events without touching why the endpoint was turned off', async () => {
    // Arrange
    const { deps, webhooks } = setup();
    const created = await createWebhook(deps, admin, input);
    await webhooks.update(created.id, { active: false, disabled_reason: 'gone' });

    // Act
    const updated = await updateWebhook(deps, created.id, { url: 'https://hooks.example.com/new', events: ['ocr.failed', 'ocr.failed'] });

    // Assert
    expect(updated).toMatchObject({ url: 'https://hooks.example.com/new', events: ['ocr.failed'], active: false, disabled_reason: 'gone' });
  });
});

describe('deleteWebhook', () => {
  it('removes the endpoint', async () => {
    // Arrange
    const { deps, webhooks } = setup();
    const created = await createWebhook(deps, admin, input);

    // Act
    await deleteWebhook(deps, created.id);

    // Assert
    expect(webhooks.byId.has(created.id)).toBe(false);
  });
});

describe('unknown endpoints', () => {
  const operations: [string, (deps: ReturnType<typeof setup>['deps']) => Promise<unknown>][] = [
    ['update', (deps) => updateWebhook(deps, 'wh-missing', { active: true })],
    ['delete', (deps) => deleteWebhook(deps, 'wh-missing')],
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
