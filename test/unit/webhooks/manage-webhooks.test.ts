import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/domain/errors';
import type { Principal } from '../../../shared/domain/principal';
import { createWebhook, type NewWebhook } from '../../../shared/domain/webhooks/create-webhook';
import { secretContext, type WebhookAdminDeps } from '../../../shared/domain/webhooks/manage-deps';
import { MAX_WEBHOOKS_PER_WORKSPACE, ROTATED_SECRET_GRACE_MS, type WebhookDelivery } from '../../../shared/domain/webhooks/ports';
import { getWebhook, listDeliveries, listWebhooks } from '../../../shared/domain/webhooks/read-webhooks';
import { rotateWebhookSecret } from '../../../shared/domain/webhooks/rotate-webhook-secret';
import { testWebhook } from '../../../shared/domain/webhooks/test-webhook';
import { deleteWebhook, updateWebhook } from '../../../shared/domain/webhooks/update-webhook';
import { MemoryDeliveries, MemoryWebhooks, PrefixVault, RecordingDeliveryQueue } from './fake-webhooks';

const NOW = new Date('2026-03-01T10:00:00.000Z');
const LATER = new Date('2026-03-02T12:00:00.000Z');

const admin: Principal = {
  userId: 'admin-1',
  username: 'ada',
  email: 'ada@example.com',
  role: 'admin',
  workspaceId: 'w-1',
  jti: 'j-1',
  tokenExpiresAt: new Date('2026-03-01T11:00:00Z'),
};

const input: NewWebhook = { url: 'https://hooks.example.com/in', events: ['document.uploaded', 'ocr.completed', 'document.uploaded'], description: 'CRM sync', active: true };

const setup = () => {
  const webhooks = new MemoryWebhooks();
  const deliveries = new MemoryDeliveries();
  const deliveryQueue = new RecordingDeliveryQueue();
  const vault = new PrefixVault();
  let date = NOW;
  const deps: WebhookAdminDeps = { workspaceId: 'w-1', webhooks, deliveries, deliveryQueue, vault, clock: { now: () => date } };
  return { deps, webhooks, deliveries, deliveryQueue, vault, setNow: (next: Date) => (date = next) };
};

const refusal = async (promise: Promise<unknown>): Promise<AppError> => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
};

describe('createWebhook', () => {
  it('answers the whsec_ secret once, with the endpoint as the API shows it', async () => {
    // Arrange
    const { deps } = setup();

    // Act
    const created = await createWebhook(deps, admin, input);

    // Assert
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(created).toMatchObject({
      url: input.url,
      events: ['document.uploaded', 'ocr.completed'],
      description: 'CRM sync',
      active: true,
      disabled_reason: null,
      failing_since: null,
      created_by: 'admin-1',
      created_at: NOW.toISOString(),
      updated_at: NOW.toISOString(),
    });
    expect(created).not.toHaveProperty('secrets');
    expect(created).not.toHaveProperty('workspace_id');
  });

  it('stores the secret only sealed, for this endpoint of this workspace', async () => {
    // Arrange
    const { deps, webhooks, vault } = setup();

    // Act
    const created = await createWebhook(deps, admin, input);

    // Assert
    const stored = webhooks.byId.get(created.id)!;
    expect(stored.workspace_id).toBe('w-1');
    expect(JSON.stringify(stored)).not.toContain(created.secret);
    expect(stored.secrets).toEqual([{ sealed: expect.any(String), created_at: NOW.toISOString(), expires_at: null }]);
    expect(await vault.open(stored.secrets[0]!.sealed, secretContext('w-1', created.id))).toBe(created.secret);
  });

  it(`refuses the ${MAX_WEBHOOKS_PER_WORKSPACE + 1}th endpoint of a workspace with 409 webhook_limit`, async () => {
    // Arrange
    const { deps, webhooks } = setup();
    for (let i = 0; i < MAX_WEBHOOKS_PER_WORKSPACE; i++) await createWebhook(deps, admin, { ...input, url: `https://hooks.example.com/${i}` });

    // Act
    const error = await refusal(createWebhook(deps, admin, input));

    // Assert
    expect(error.code).toBe('DUPLICATE_RESOURCE');
    expect(error.status).toBe(409);
    expect(error.details).toEqual({ reason: 'webhook_limit', limit: MAX_WEBHOOKS_PER_WORKSPACE });
    expect(webhooks.byId.size).toBe(MAX_WEBHOOKS_PER_WORKSPACE);
  });
});

describe('reading endpoints', () => {
  it('lists the endpoints without any secret, sealed or not', async () => {
    // Arrange
    const { deps, webhooks } = setup();
    const first = await createWebhook(deps, admin, input);
    const second = await createWebhook(deps, admin, { ...input, url: 'https://hooks.example.com/two' });

    // Act
    const { webhooks: listed } = await listWebhooks(deps);

    // Assert
    expect(listed.map((webhook) => webhook.id).sort()).toEqual([first.id, second.id].sort());
    const text = JSON.stringify(listed);
    for (const stored of webhooks.byId.values()) expect(text).not.toContain(stored.secrets[0]!.sealed);
    expect(text).not.toContain(first.secret);
    expect(text).not.toContain('"secrets"');
  });

  it('gets one endpoint without its secrets', async () => {
    // Arrange
    const { deps } = setup();
    const created = await createWebhook(deps, admin, input);

    // Act
    const webhook = await getWebhook(deps, created.id);

    // Assert
    expect(webhook.id).toBe(created.id);
    expect(webhook).not.toHaveProperty('secrets');
    expect(webhook).not.toHaveProperty('secret');
  });

  it("lists an endpoint's deliveries newest first, without their payloads", async () => {
    // Arrange
    const { deps, deliveries } = setup();
    const created = await createWebhook(deps, admin, input);
    const aDelivery = (id: string, at: string): WebhookDelivery => ({
      id,
      webhook_id: created.id,
      workspace_id: 'w-1',
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
    await deliveries.createIfAbsent(aDelivery('msg_old', '2026-03-01T08:00:00.000Z'));
    await deliveries.createIfAbsent(aDelivery('msg_new', '2026-03-01T09:00:00.000Z'));

    // Act
    const page = await listDeliveries(deps, created.id, { page: 1, perPage: 20 });

    // Assert
    expect(page.data.map((delivery) => delivery.id)).toEqual(['msg_new', 'msg_old']);
    expect(page.pagination.total).toBe(2);
    expect(page.data[0]).not.toHaveProperty('payload');
  });
});

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

describe('rotateWebhookSecret', () => {
  it('answers a new secret that signs from now on, and keeps the old one for 24 hours', async () => {
    // Arrange
    const { deps, webhooks, vault, setNow } = setup();
    const created = await createWebhook(deps, admin, input);
    const oldSealed = webhooks.byId.get(created.id)!.secrets[0]!.sealed;
    setNow(LATER);

    // Act
    const rotated = await rotateWebhookSecret(deps, created.id);

    // Assert
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    expect(rotated).not.toHaveProperty('secrets');
    const secrets = webhooks.byId.get(created.id)!.secrets;
    expect(secrets).toEqual([
      { sealed: expect.any(String), created_at: LATER.toISOString(), expires_at: null },
      { sealed: oldSealed, created_at: NOW.toISOString(), expires_at: new Date(LATER.getTime() + ROTATED_SECRET_GRACE_MS).toISOString() },
    ]);
    expect(await vault.open(secrets[0]!.sealed, secretContext('w-1', created.id))).toBe(rotated.secret);
  });

  it('drops secrets rotated out earlier that have expired, and keeps the expiry of one still in its grace', async () => {
    // Arrange
    const { deps, webhooks, setNow } = setup();
    const created = await createWebhook(deps, admin, input);
    const current = webhooks.byId.get(created.id)!.secrets[0]!;
    const expired = { sealed: 'sealed-expired', created_at: '2026-02-01T00:00:00.000Z', expires_at: '2026-03-01T09:00:00.000Z' };
    const inGrace = { sealed: 'sealed-grace', created_at: '2026-02-01T00:00:00.000Z', expires_at: '2026-03-01T20:00:00.000Z' };
    await webhooks.update(created.id, { secrets: [current, inGrace, expired] });
    setNow(new Date('2026-03-01T12:00:00.000Z'));

    // Act
    await rotateWebhookSecret(deps, created.id);

    // Assert
    const secrets = webhooks.byId.get(created.id)!.secrets;
    expect(secrets.map((secret) => secret.sealed)).toEqual([expect.any(String), current.sealed, 'sealed-grace']);
    expect(secrets[1]!.expires_at).toBe('2026-03-02T12:00:00.000Z');
    expect(secrets[2]!.expires_at).toBe(inGrace.expires_at);
  });
});

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
  const operations: [string, (deps: WebhookAdminDeps) => Promise<unknown>][] = [
    ['get', (deps) => getWebhook(deps, 'wh-missing')],
    ['update', (deps) => updateWebhook(deps, 'wh-missing', { active: true })],
    ['delete', (deps) => deleteWebhook(deps, 'wh-missing')],
    ['rotate', (deps) => rotateWebhookSecret(deps, 'wh-missing')],
    ['test', (deps) => testWebhook(deps, 'wh-missing')],
    ['list deliveries', (deps) => listDeliveries(deps, 'wh-missing', { page: 1, perPage: 20 })],
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
