import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { deliverWebhook, type DeliverDeps } from '../../../../shared/domain/webhooks/deliver-webhook';
import { secretContext } from '../../../../shared/domain/webhooks/manage-deps';
import {
  DISABLE_AFTER_FAILING_MS,
  type DeliveryMessage,
  type WebhookDelivery,
  type WebhookRecord,
} from '../../../../shared/domain/webhooks/ports';
import { generateSigningSecret } from '../../../../shared/domain/webhooks/signature';
import { RETRY_DELAYS_SECONDS } from '../../../../shared/domain/webhooks/webhook';
import { MemoryDeliveries, MemoryWebhooks, PrefixVault, RecordingDeliveryQueue, ScriptedSender } from './fake-webhooks';

/**
 * Whole seconds near the real time: the Standard Webhooks library checks a signature's timestamp against the
 * real clock (five minutes either way), so the fixed clock stays close to it.
 */
const NOW = new Date(Math.floor(Date.now() / 1000) * 1000);
const iso = (offsetMs = 0) => new Date(NOW.getTime() + offsetMs).toISOString();
const PAYLOAD = JSON.stringify({ id: 'evt_1', type: 'document.uploaded', created_at: iso(), workspace_id: 'w-1', data: { document: { id: 'doc-1' } } });

const vault = new PrefixVault();

/** `random: () => 0.5` takes the jitter out: each wait is its base. */
async function setup(options: { webhook?: Partial<WebhookRecord>; delivery?: Partial<WebhookDelivery>; answers?: ConstructorParameters<typeof ScriptedSender>; secrets?: { expiresInMs: number | null }[] } = {}) {
  const plainSecrets = (options.secrets ?? [{ expiresInMs: null }]).map(({ expiresInMs }) => ({ plain: generateSigningSecret(), expiresInMs }));
  const webhook: WebhookRecord = {
    id: 'wh-1',
    workspace_id: 'w-1',
    url: 'https://hooks.example.com/in',
    events: ['document.uploaded'],
    description: null,
    active: true,
    disabled_reason: null,
    failing_since: null,
    secrets: await Promise.all(
      plainSecrets.map(async ({ plain, expiresInMs }) => ({
        sealed: await vault.seal(plain, secretContext('w-1', 'wh-1')),
        created_at: iso(-60_000),
        expires_at: expiresInMs === null ? null : iso(expiresInMs),
      })),
    ),
    created_by: 'admin',
    created_at: iso(-60_000),
    updated_at: iso(-60_000),
    ...options.webhook,
  };
  const delivery: WebhookDelivery = {
    id: 'msg_1',
    webhook_id: 'wh-1',
    workspace_id: 'w-1',
    event_id: 'evt_1',
    type: 'document.uploaded',
    state: 'pending',
    attempts: 0,
    last_status_code: null,
    last_error: null,
    last_response: null,
    duration_ms: null,
    created_at: iso(),
    last_attempt_at: null,
    next_attempt_at: iso(),
    payload: PAYLOAD,
    ...options.delivery,
  };
  const webhooks = new MemoryWebhooks();
  webhooks.byId.set(webhook.id, webhook);
  const deliveries = new MemoryDeliveries();
  deliveries.byId.set(delivery.id, delivery);
  const deliveryQueue = new RecordingDeliveryQueue();
  const sender = new ScriptedSender(...(options.answers ?? [200]));
  const notices: { title: string; message: string; data: Record<string, unknown> }[] = [];
  let date = NOW;
  const deps: DeliverDeps = {
    inWorkspace: () => ({ webhooks, deliveries, notifyAdmins: async (notice) => void notices.push(notice) }),
    sender,
    vault,
    deliveryQueue,
    clock: { now: () => date },
    random: () => 0.5,
  };
  const message: DeliveryMessage = { workspace_id: 'w-1', webhook_id: 'wh-1', delivery_id: 'msg_1', attempts: delivery.attempts };
  return {
    deps,
    message,
    webhooks,
    deliveries,
    deliveryQueue,
    sender,
    notices,
    secrets: plainSecrets.map(({ plain }) => plain),
    setNow: (next: Date) => (date = next),
  };
}

describe('deliverWebhook: outcomes', () => {
  it('marks a delivery answered 2xx succeeded, with what the endpoint said, and forgets that the endpoint was failing', async () => {
    // Arrange
    const { deps, message, deliveries, webhooks, deliveryQueue } = await setup({ answers: [204], webhook: { failing_since: iso(-3_600_000) } });

    // Act
    const step = await deliverWebhook(deps, message);

    // Assert
    expect(step).toBe('succeeded');
    expect(deliveries.byId.get('msg_1')).toMatchObject({
      state: 'succeeded',
      attempts: 1,
      last_status_code: 204,
      last_error: null,
      last_response: 'status 204',
      duration_ms: 12,
      last_attempt_at: iso(),
      next_attempt_at: null,
    });
    expect(webhooks.byId.get('wh-1')?.failing_since).toBeNull();
    expect(deliveryQueue.sent).toEqual([]);
  });

  it('retries a delivery answered 500 after the first wait, through a delayed message for the next attempt, and marks the endpoint failing', async () => {
    // Arrange
    const { deps, message, deliveries, webhooks, deliveryQueue } = await setup({ answers: [500] });

    // Act
    const step = await deliverWebhook(deps, message);

    // Assert
    expect(step).toBe('retrying');
    expect(deliveries.byId.get('msg_1')).toMatchObject({
      state: 'pending',
      attempts: 1,
      last_status_code: 500,
      last_attempt_at: iso(),
      next_attempt_at: iso(RETRY_DELAYS_SECONDS[0] * 1000),
    });
    expect(deliveryQueue.sent).toEqual([{ message: { ...message, attempts: 1 }, delaySeconds: RETRY_DELAYS_SECONDS[0] }]);
    expect(webhooks.byId.get('wh-1')?.failing_since).toBe(iso());
  });

  it('waits longer before later retries, the queued delay capped at the queue maximum', async () => {
    // Arrange
    const { deps, message, deliveries, deliveryQueue } = await setup({ answers: [503], delivery: { attempts: 3 } });

    // Act
    const step = await deliverWebhook(deps, message);

    // Assert
    expect(step).toBe('retrying');
    expect(deliveries.byId.get('msg_1')?.next_attempt_at).toBe(iso(RETRY_DELAYS_SECONDS[3] * 1000));
    expect(deliveryQueue.sent).toEqual([{ message: { ...message, attempts: 4 }, delaySeconds: 900 }]);
  });

  it('retries an attempt that timed out like one answered 500, recording the error', async () => {
    // Arrange
    const { deps, message, deliveries, webhooks, deliveryQueue } = await setup({ answers: ['timeout'] });

    // Act
    const step = await deliverWebhook(deps, message);

    // Assert
    expect(step).toBe('retrying');
    expect(deliveries.byId.get('msg_1')).toMatchObject({ state: 'pending', attempts: 1, last_status_code: null, last_error: 'timeout', next_attempt_at: iso(5000) });
    expect(deliveryQueue.messages).toEqual([{ ...message, attempts: 1 }]);
    expect(webhooks.byId.get('wh-1')?.failing_since).toBe(iso());
  });

  it('keeps the time the endpoint started failing when another attempt fails', async () => {
    // Arrange
    const since = iso(-3_600_000);
    const { deps, message, webhooks } = await setup({ answers: [502], webhook: { failing_since: since } });

    // Act
    await deliverWebhook(deps, message);

    // Assert
    expect(webhooks.byId.get('wh-1')?.failing_since).toBe(since);
  });

  it("fails a delivery answered 410 Gone, turns the endpoint off as 'gone' and tells the admins", async () => {
    // Arrange
    const { deps, message, deliveries, webhooks, deliveryQueue, notices } = await setup({ answers: [410] });

    // Act
    const step = await deliverWebhook(deps, message);

    // Assert
    expect(step).toBe('failed');
    expect(deliveries.byId.get('msg_1')).toMatchObject({ state: 'failed', last_status_code: 410, next_attempt_at: null });
    expect(webhooks.byId.get('wh-1')).toMatchObject({ active: false, disabled_reason: 'gone' });
    expect(notices).toEqual([expect.objectContaining({ title: 'Webhook disabled', data: { webhook_id: 'wh-1', reason: 'gone' } })]);
    expect(deliveryQueue.sent).toEqual([]);
  });

  it("turns off, as 'failing', an endpoint that has failed every attempt for three days, and tells the admins", async () => {
    // Arrange
    const { deps, message, deliveries, webhooks, deliveryQueue, notices } = await setup({ answers: [500], webhook: { failing_since: iso(-DISABLE_AFTER_FAILING_MS) } });

    // Act
    const step = await deliverWebhook(deps, message);

    // Assert
    expect(step).toBe('failed');
    expect(deliveries.byId.get('msg_1')).toMatchObject({ state: 'failed', next_attempt_at: null });
    expect(webhooks.byId.get('wh-1')).toMatchObject({ active: false, disabled_reason: 'failing' });
    expect(notices).toEqual([expect.objectContaining({ data: { webhook_id: 'wh-1', reason: 'failing' } })]);
    expect(deliveryQueue.sent).toEqual([]);
  });

  it('keeps retrying an endpoint failing for a minute less than three days', async () => {
    // Arrange
    const { deps, message, webhooks, notices } = await setup({ answers: [500], webhook: { failing_since: iso(-DISABLE_AFTER_FAILING_MS + 60_000) } });

    // Act
    const step = await deliverWebhook(deps, message);

    // Assert
    expect(step).toBe('retrying');
    expect(webhooks.byId.get('wh-1')?.active).toBe(true);
    expect(notices).toEqual([]);
  });

  it('fails a delivery whose last retry failed, and queues nothing more', async () => {
    // Arrange
    const { deps, message, deliveries, webhooks, deliveryQueue } = await setup({ answers: [500], delivery: { attempts: RETRY_DELAYS_SECONDS.length } });

    // Act
    const step = await deliverWebhook(deps, message);

    // Assert
    expect(step).toBe('failed');
    expect(deliveries.byId.get('msg_1')).toMatchObject({ state: 'failed', attempts: RETRY_DELAYS_SECONDS.length + 1, next_attempt_at: null });
    expect(deliveryQueue.sent).toEqual([]);
    expect(webhooks.byId.get('wh-1')?.active).toBe(true);
  });
});

describe('deliverWebhook: a workspace being deleted', () => {
  it('drops the delivery: nothing is sent, recorded or queued again', async () => {
    // Arrange
    const { deps, message, sender, deliveries, deliveryQueue } = await setup({ answers: [204] });
    const before = JSON.stringify(await deliveries.get(message.delivery_id));

    // Act
    const step = await deliverWebhook({ ...deps, deleting: async () => true, serves: async () => false }, message);

    // Assert
    expect(step).toBe('skipped');
    expect(sender.requests).toEqual([]);
    expect(JSON.stringify(await deliveries.get(message.delivery_id))).toBe(before);
    expect(deliveryQueue.sent).toEqual([]);
  });
});

describe('deliverWebhook: signing', () => {
  it('signs the payload so the Standard Webhooks library verifies it with the secret the vault opens, webhook-id being the delivery id', async () => {
    // Arrange
    const { deps, message, sender, secrets } = await setup();

    // Act
    await deliverWebhook(deps, message);

    // Assert
    const [request] = sender.requests;
    expect(request).toMatchObject({ url: 'https://hooks.example.com/in', body: PAYLOAD });
    expect(request!.headers['webhook-id']).toBe('msg_1');
    expect(request!.headers['webhook-timestamp']).toBe(String(NOW.getTime() / 1000));
    expect(new Webhook(secrets[0]!).verify(request!.body, request!.headers)).toEqual(JSON.parse(PAYLOAD));
  });

  it('sends a retry with the same webhook-id and body, signed anew', async () => {
    // Arrange
    const { deps, message, sender, secrets, deliveryQueue, setNow } = await setup({ answers: [500, 200] });
    await deliverWebhook(deps, message);
    setNow(new Date(NOW.getTime() + RETRY_DELAYS_SECONDS[0] * 1000));

    // Act
    const step = await deliverWebhook(deps, deliveryQueue.messages[0]!);

    // Assert
    expect(step).toBe('succeeded');
    const [first, retry] = sender.requests;
    expect(retry!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(retry!.headers['webhook-id']).toBe('msg_1');
    expect(retry!.body).toBe(first!.body);
    expect(Number(retry!.headers['webhook-timestamp'])).toBe(Number(first!.headers['webhook-timestamp']) + RETRY_DELAYS_SECONDS[0]);
    expect(new Webhook(secrets[0]!).verify(retry!.body, retry!.headers)).toEqual(JSON.parse(PAYLOAD));
  });

  it('signs with the current secret and with a rotated one not yet expired, each signature verifying', async () => {
    // Arrange
    const { deps, message, sender, secrets } = await setup({ secrets: [{ expiresInMs: null }, { expiresInMs: 3_600_000 }] });

    // Act
    await deliverWebhook(deps, message);

    // Assert
    const [request] = sender.requests;
    expect(request!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const secret of secrets) expect(new Webhook(secret).verify(request!.body, request!.headers)).toEqual(JSON.parse(PAYLOAD));
  });

  it('no longer signs with a rotated secret that has expired', async () => {
    // Arrange
    const { deps, message, sender, secrets } = await setup({ secrets: [{ expiresInMs: null }, { expiresInMs: -1000 }] });

    // Act
    await deliverWebhook(deps, message);

    // Assert
    const [request] = sender.requests;
    expect(request!.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(new Webhook(secrets[0]!).verify(request!.body, request!.headers)).toEqual(JSON.parse(PAYLOAD));
    expect(() => new Webhook(secrets[1]!).verify(request!.body, request!.headers)).toThrow();
  });
});

describe('deliverWebhook: what it does not send', () => {
  it('skips, without sending, a message for an attempt already made', async () => {
    // Arrange
    const { deps, message, sender, deliveries, deliveryQueue } = await setup({ delivery: { attempts: 1 } });

    // Act
    const step = await deliverWebhook(deps, { ...message, attempts: 0 });

    // Assert
    expect(step).toBe('skipped');
    expect(sender.requests).toEqual([]);
    expect(deliveries.byId.get('msg_1')?.attempts).toBe(1);
    expect(deliveryQueue.sent).toEqual([]);
  });

  it('makes again an attempt whose worker claimed it and died before recording anything, once its lease ran out', async () => {
    // Arrange
    const { deps, message, sender, deliveries } = await setup({ delivery: { attempts: 1 } });
    deliveries.leases.set('msg_1', iso(-1_000));

    // Act
    const step = await deliverWebhook(deps, { ...message, attempts: 0 });

    // Assert
    expect(step).toBe('succeeded');
    expect(sender.requests).toHaveLength(1);
    expect(deliveries.byId.get('msg_1')).toMatchObject({ attempts: 1, state: 'succeeded' });
  });

  it('skips a delivery that is no longer pending', async () => {
    // Arrange
    const { deps, message, sender } = await setup({ delivery: { state: 'succeeded' } });

    // Act
    const step = await deliverWebhook(deps, message);

    // Assert
    expect(step).toBe('skipped');
    expect(sender.requests).toEqual([]);
  });

  it('skips, without sending, a delivery another worker holds', async () => {
    // Arrange
    const { deps, message, sender, deliveries } = await setup();
    deliveries.leases.set('msg_1', iso(20_000));

    // Act
    const step = await deliverWebhook(deps, message);

    // Assert
    expect(step).toBe('skipped');
    expect(sender.requests).toEqual([]);
  });

  it('queues again, without sending, a delivery not yet due, for the remaining wait', async () => {
    // Arrange
    const { deps, message, sender, deliveryQueue } = await setup({ delivery: { next_attempt_at: iso(120_000) } });

    // Act
    const step = await deliverWebhook(deps, message);

    // Assert
    expect(step).toBe('waiting');
    expect(sender.requests).toEqual([]);
    expect(deliveryQueue.sent).toEqual([{ message, delaySeconds: 120 }]);
  });

  it('queues a delivery due in hours again for the longest delay the queue takes', async () => {
    // Arrange
    const { deps, message, sender, deliveryQueue } = await setup({ delivery: { next_attempt_at: iso(5 * 3_600_000) } });

    // Act
    const step = await deliverWebhook(deps, message);

    // Assert
    expect(step).toBe('waiting');
    expect(sender.requests).toEqual([]);
    expect(deliveryQueue.sent).toEqual([{ message, delaySeconds: 900 }]);
  });

  it('cancels, without sending, a delivery whose endpoint was deleted', async () => {
    // Arrange
    const { deps, message, sender, webhooks, deliveries } = await setup();
    webhooks.byId.delete('wh-1');

    // Act
    const step = await deliverWebhook(deps, message);

    // Assert
    expect(step).toBe('cancelled');
    expect(sender.requests).toEqual([]);
    expect(deliveries.byId.get('msg_1')).toMatchObject({ state: 'cancelled', attempts: 0, last_error: 'webhook_deleted', next_attempt_at: null });
  });

  it('cancels, without sending, an event for an endpoint that is off', async () => {
    // Arrange
    const { deps, message, sender, deliveries } = await setup({ webhook: { active: false } });

    // Act
    const step = await deliverWebhook(deps, message);

    // Assert
    expect(step).toBe('cancelled');
    expect(sender.requests).toEqual([]);
    expect(deliveries.byId.get('msg_1')).toMatchObject({ state: 'cancelled', last_error: 'webhook_inactive' });
  });

  it('still sends a ping to an endpoint that is off', async () => {
    // Arrange
    const { deps, message, sender, deliveries } = await setup({ webhook: { active: false }, delivery: { type: 'ping' } });

    // Act
    const step = await deliverWebhook(deps, message);

    // Assert
    expect(step).toBe('succeeded');
    expect(sender.requests).toHaveLength(1);
    expect(deliveries.byId.get('msg_1')?.state).toBe('succeeded');
  });

  it('retries a failed ping without counting it towards turning the endpoint off', async () => {
    // Arrange
    const { deps, message, webhooks } = await setup({ webhook: { active: false }, delivery: { type: 'ping' }, answers: [500] });

    // Act
    const step = await deliverWebhook(deps, message);

    // Assert
    expect(step).toBe('retrying');
    expect(webhooks.byId.get('wh-1')?.failing_since).toBeNull();
  });
});
