import { beforeAll, describe, expect, it } from 'vitest';
import { createWebhook } from '../../../../shared/domain/webhooks/create-webhook';
import type { WebhookDelivery } from '../../../../shared/domain/webhooks/ports';
import { getWebhook, listDeliveries, listWebhooks } from '../../../../shared/domain/webhooks/read-webhooks';
import { input, refusal, webhookStores } from './webhook-stores';

describe('reading endpoints', () => {
  let stores: Awaited<ReturnType<typeof webhookStores>>;

  beforeAll(async () => {
    stores = await webhookStores();
  });

  it('lists the endpoints without any secret, sealed or not', async () => {
    // Arrange
    const { deps, admin, webhooks } = stores.setup();
    const first = await createWebhook(deps, admin, input);
    const second = await createWebhook(deps, admin, { ...input, url: 'https://hooks.example.com/two' });

    // Act
    const { webhooks: listed } = await listWebhooks(deps);

    // Assert
    expect(listed.map((webhook) => webhook.id).sort()).toEqual([first.id, second.id].sort());
    const text = JSON.stringify(listed);
    for (const stored of await webhooks.list()) expect(text).not.toContain(stored.secrets[0]!.sealed);
    expect(text).not.toContain(first.secret);
    expect(text).not.toContain('"secrets"');
  });

  it("lists none of another workspace's endpoints", async () => {
    // Arrange
    const theirs = stores.setup();
    await createWebhook(theirs.deps, theirs.admin, input);
    const { deps } = stores.setup();

    // Act
    const { webhooks: listed } = await listWebhooks(deps);

    // Assert
    expect(listed).toEqual([]);
  });

  it('gets one endpoint without its secrets', async () => {
    // Arrange
    const { deps, admin } = stores.setup();
    const created = await createWebhook(deps, admin, input);

    // Act
    const webhook = await getWebhook(deps, created.id);

    // Assert
    expect(webhook.id).toBe(created.id);
    expect(webhook).not.toHaveProperty('secrets');
    expect(webhook).not.toHaveProperty('secret');
  });

  it("answers 404 for another workspace's endpoint", async () => {
    // Arrange
    const theirs = stores.setup();
    const created = await createWebhook(theirs.deps, theirs.admin, input);
    const { deps } = stores.setup();

    // Act
    const error = await refusal(getWebhook(deps, created.id));

    // Assert
    expect({ code: error.code, details: error.details }).toEqual({ code: 'NOT_FOUND', details: { resource: 'Webhook', id: created.id } });
  });

  it("lists an endpoint's deliveries newest first, without their payloads", async () => {
    // Arrange
    const { deps, admin, deliveries } = stores.setup();
    const created = await createWebhook(deps, admin, input);
    const aDelivery = (id: string, at: string): WebhookDelivery => ({
      id,
      webhook_id: created.id,
      workspace_id: deps.workspaceId,
      event_id: `evt_${id}`,
      type: 'document.uploaded',
      state: 'succeeded',
      attempts: 1,
      last_status_code: 200,
      last_error: null,
      last_response: 'ok',
      duration_ms: 5,
      created_at: at,
      last_attempt_at: at,
      next_attempt_at: null,
      payload: '{"secret":"payload"}',
    });
    await deliveries.createIfAbsent(aDelivery('msg_old', '2099-03-01T08:00:00.000Z'));
    await deliveries.createIfAbsent(aDelivery('msg_new', '2099-03-01T09:00:00.000Z'));

    // Act
    const page = await listDeliveries(deps, created.id, { page: 1, perPage: 20 });

    // Assert
    expect(page.data.map((delivery) => delivery.id)).toEqual(['msg_new', 'msg_old']);
    expect(page.pagination.total).toBe(2);
    expect(page.data[0]).not.toHaveProperty('payload');
  });
});

describe('unknown endpoints', () => {
  let stores: Awaited<ReturnType<typeof webhookStores>>;

  beforeAll(async () => {
    stores = await webhookStores();
  });

  const operations: [string, (deps: ReturnType<typeof stores.setup>['deps']) => Promise<unknown>][] = [
    ['get', (deps) => getWebhook(deps, 'wh-missing')],
    ['list deliveries', (deps) => listDeliveries(deps, 'wh-missing', { page: 1, perPage: 20 })],
  ];

  it.each(operations)('answers NOT_FOUND to %s of an unknown id', async (_name, operation) => {
    // Arrange
    const { deps } = stores.setup();

    // Act
    const error = await refusal(operation(deps));

    // Assert
    expect(error.code).toBe('NOT_FOUND');
    expect(error.details).toEqual({ resource: 'Webhook', id: 'wh-missing' });
  });
});
