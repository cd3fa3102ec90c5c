import { beforeAll, describe, expect, it } from 'vitest';
import { createWebhook } from '../../../../shared/domain/webhooks/create-webhook';
import { deleteWebhook, updateWebhook } from '../../../../shared/domain/webhooks/update-webhook';
import { input, LATER, refusal, webhookStores } from './webhook-stores';

describe('updateWebhook', () => {
  let stores: Awaited<ReturnType<typeof webhookStores>>;

  beforeAll(async () => {
    stores = await webhookStores();
  });

  it('turning an endpoint on again forgets why it was turned off and since when it failed', async () => {
    // Arrange
    const { deps, admin, webhooks, setNow } = stores.setup();
    const created = await createWebhook(deps, admin, input);
    await webhooks.update(created.id, { active: false, disabled_reason: 'failing', failing_since: '2099-02-20T00:00:00.000Z' });
    setNow(LATER);

    // Act
    const updated = await updateWebhook(deps, created.id, { active: true });

    // Assert
    expect(updated).toMatchObject({ active: true, disabled_reason: null, failing_since: null, updated_at: LATER.toISOString() });
    expect(await webhooks.get(created.id)).toMatchObject({ active: true, disabled_reason: null, failing_since: null });
  });

  it('changes the url and events without touching why the endpoint was turned off', async () => {
    // Arrange
    const { deps, admin, webhooks } = stores.setup();
    const created = await createWebhook(deps, admin, input);
    await webhooks.update(created.id, { active: false, disabled_reason: 'gone' });

    // Act
    const updated = await updateWebhook(deps, created.id, { url: 'https://hooks.example.com/new', events: ['ocr.failed', 'ocr.failed'] });

    // Assert
    expect(updated).toMatchObject({ url: 'https://hooks.example.com/new', events: ['ocr.failed'], active: false, disabled_reason: 'gone' });
  });

  it("answers 404 for another workspace's endpoint, leaving it as it was", async () => {
    // Arrange
    const theirs = stores.setup();
    const created = await createWebhook(theirs.deps, theirs.admin, input);
    const { deps } = stores.setup();

    // Act
    const error = await refusal(updateWebhook(deps, created.id, { url: 'https://attacker.example.com/' }));

    // Assert
    expect(error.code).toBe('NOT_FOUND');
    expect((await theirs.webhooks.get(created.id))?.url).toBe(input.url);
  });
});

describe('deleteWebhook', () => {
  let stores: Awaited<ReturnType<typeof webhookStores>>;

  beforeAll(async () => {
    stores = await webhookStores();
  });

  it('removes the endpoint', async () => {
    // Arrange
    const { deps, admin, webhooks } = stores.setup();
    const created = await createWebhook(deps, admin, input);

    // Act
    await deleteWebhook(deps, created.id);

    // Assert
    expect(await webhooks.get(created.id)).toBeNull();
  });

  it("answers 404 for another workspace's endpoint and keeps it", async () => {
    // Arrange
    const theirs = stores.setup();
    const created = await createWebhook(theirs.deps, theirs.admin, input);
    const { deps } = stores.setup();

    // Act
    const error = await refusal(deleteWebhook(deps, created.id));

    // Assert
    expect(error.code).toBe('NOT_FOUND');
    expect(await theirs.webhooks.get(created.id)).not.toBeNull();
  });
});

describe('unknown endpoints', () => {
  let stores: Awaited<ReturnType<typeof webhookStores>>;

  beforeAll(async () => {
    stores = await webhookStores();
  });

  const operations: [string, (deps: ReturnType<typeof stores.setup>['deps']) => Promise<unknown>][] = [
    ['update', (deps) => updateWebhook(deps, 'wh-missing', { active: true })],
    ['delete', (deps) => deleteWebhook(deps, 'wh-missing')],
  ];

  it.each(operations)('answers NOT_FOUND to %s of an unknown id, storing nothing', async (_name, operation) => {
    // Arrange
    const { deps, webhooks } = stores.setup();

    // Act
    const error = await refusal(operation(deps));

    // Assert
    expect(error.code).toBe('NOT_FOUND');
    expect(error.details).toEqual({ resource: 'Webhook', id: 'wh-missing' });
    expect(await webhooks.list()).toEqual([]);
  });
});
