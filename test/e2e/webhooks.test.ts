import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { ApiClient } from '../support/api-client';
import { pngImage } from '../support/fixtures';
import { startRuntimeProcess } from '../support/runtime-process';
import { textPdf } from '../support/text-pdf';
import { eventually, until } from '../support/until';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../support/webhook-receiver';

const baseUrl = inject('baseUrl');

/** What a receiver does with a request: verify it with the Standard Webhooks library, as a receiver would. */
const verifies = (secret: string, webhook: ReceivedWebhook): boolean => {
  try {
    new Webhook(secret).verify(webhook.body, webhook.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};

/** Webhooks (issue 36): signed deliveries of the workspace's changes to endpoints on loopback. */
describe('webhooks', () => {
  const anonymous = new ApiClient(baseUrl);
  let admin: ApiClient;
  const receivers: WebhookReceiver[] = [];

  const receiver = async (...args: Parameters<typeof startWebhookReceiver>) => {
    const started = await startWebhookReceiver(...args);
    receivers.push(started);
    return started;
  };
  const register = async (url: string, events: string[], client = admin) => {
    const created = await client.post('/api/webhooks', { url, events });
    expect(created.status).toBe(201);
    return { id: created.body.id as string, secret: created.body.secret as string };
  };
  const uploadPng = (client = admin) => client.uploadDocument('pixel.png', pngImage(8, 8), { ocr_enabled: 'false' });

  beforeAll(async () => {
    ({ client: admin } = await anonymous.signUp('hooks'));
  });

  afterEach(async () => {
    const { body } = await admin.get('/api/webhooks');
    await Promise.all(body.webhooks.map((webhook: { id: string }) => admin.delete(`/api/webhooks/${webhook.id}`)));
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });

  it('shows the signing secret once, at creation; reads never carry it', async () => {
    const created = await admin.post('/api/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['document.uploaded'], description: 'ERP' });
    const listed = await admin.get('/api/webhooks');
    const read = await admin.get(`/api/webhooks/${created.body.id}`);

    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ url: 'http://127.0.0.1:9/hooks', events: ['document.uploaded'], description: 'ERP', active: true });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    expect(read.body).toMatchObject({ id: created.body.id, url: created.body.url });
    expect(JSON.stringify([listed.body, read.body])).not.toContain(created.body.secret.slice(6));
    expect(JSON.stringify([listed.body, read.body])).not.toMatch(/secrets|sealed/);
  });

  it('delivers document.uploaded signed by the Standard Webhooks scheme, with the document and never its text', async () => {
    const target = await receiver();
    const { secret } = await register(target.url, ['document.uploaded']);

    const id = await admin.uploadDocument('letter.pdf', textPdf([['A letter about webhooks']]));
    await until(() => target.ofType('document.uploaded').some((w) => w.json.data.document.id === id), 20_000, 'document.uploaded');

    const [delivered] = target.ofType('document.uploaded').filter((w) => w.json.data.document.id === id);
    expect(verifies(secret, delivered!)).toBe(true);
    expect(delivered!.headers['webhook-id']).toMatch(/^msg_/);
    expect(delivered!.json).toMatchObject({ type: 'document.uploaded', workspace_id: expect.any(String), data: { document: { id, filename: 'letter.pdf' } } });
    expect(delivered!.json.id).toMatch(/^evt_/);
    expect(delivered!.body).not.toContain('A letter about webhooks');
  });

  it('sends only the events an endpoint subscribed to: ocr.completed, label.assigned, document.updated and document.deleted', async () => {
    const target = await receiver();
    await register(target.url, ['ocr.completed', 'label.assigned', 'document.updated', 'document.deleted']);
    const label = await admin.post('/api/labels', { name: `hooked-${Date.now()}`, color: '#123456' });

    const id = await admin.uploadDocument('report.pdf', textPdf([['Quarterly report']]));
    await until(() => target.ofType('ocr.completed').some((w) => w.json.data.document.id === id), 30_000, 'ocr.completed');
    await admin.post(`/api/labels/${label.body.id}/assign`, { document_ids: [id] });
    await until(() => target.ofType('label.assigned').length > 0, 20_000, 'label.assigned');
    await admin.put(`/api/documents/${id}`, { title: 'Q3 report' });
    await until(() => target.ofType('document.updated').some((w) => w.json.data.changes.includes('title')), 20_000, 'document.updated');
    await admin.delete(`/api/documents/${id}`);
    await until(() => target.ofType('document.deleted').length > 0, 20_000, 'document.deleted');

    expect(target.ofType('label.assigned')[0]!.json.data).toMatchObject({ label_id: label.body.id, document: { id } });
    expect(target.ofType('document.deleted')[0]!.json.data.document.id).toBe(id);
    expect(target.ofType('document.uploaded')).toHaveLength(0);
  }, 60_000);

  it('retries a delivery the endpoint answered with 500, with the same webhook-id, and records both attempts', async () => {
    const target = await receiver((n) => (n === 0 ? 500 : 200));
    const { id: webhookId, secret } = await register(target.url, ['document.uploaded']);

    await uploadPng();
    await until(() => target.received.length >= 2, 25_000, 'the retry');

    const [first, second] = target.received;
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(verifies(secret, second!)).toBe(true);
    const deliveries = await eventually(
      () => admin.get(`/api/webhooks/${webhookId}/deliveries`),
      (r) => r.body.data[0]?.state === 'succeeded',
      5_000,
    );
    expect(deliveries.body.data[0]).toMatchObject({ id: first!.headers['webhook-id'], attempts: 2, last_status_code: 200, state: 'succeeded', type: 'document.uploaded' });
    expect(deliveries.body.pagination).toMatchObject({ page: 1, total: 1 });
  }, 40_000);

  it('retries a delivery whose endpoint did not answer within 10 seconds, with the same webhook-id', async () => {
    const target = await receiver((n) => (n === 0 ? 'hang' : 200));
    const { id: webhookId } = await register(target.url, ['document.uploaded']);

    await uploadPng();
    await until(() => target.received.length >= 2, 40_000, 'the retry after a timeout');

    expect(target.received[1]!.headers['webhook-id']).toBe(target.received[0]!.headers['webhook-id']);
    const { body } = await eventually(() => admin.get(`/api/webhooks/${webhookId}/deliveries`), (r) => r.body.data[0]?.state === 'succeeded', 15_000);
    expect(body.data[0]).toMatchObject({ attempts: 2, state: 'succeeded' });
  }, 60_000);

  it('turns an endpoint off at once when it answers 410 Gone, and tells the admins', async () => {
    const target = await receiver(() => 410);
    const { id: webhookId } = await register(target.url, ['document.uploaded']);

    await uploadPng();
    const { body } = await eventually(() => admin.get(`/api/webhooks/${webhookId}`), (r) => r.body.active === false, 20_000, 'the endpoint turned off');

    expect(body.disabled_reason).toBe('gone');
    expect(target.received).toHaveLength(1);
    const notifications = await eventually(
      () => admin.get('/api/notifications'),
      (r) => r.body.notifications.some((n: { type: string }) => n.type === 'webhook_disabled'),
      5_000,
    );
    expect(notifications.body.notifications.find((n: { type: string }) => n.type === 'webhook_disabled').data).toEqual({ webhook_id: webhookId, reason: 'gone' });
  });

  it('signs with both the old and the new secret for a day after a rotation', async () => {
    const target = await receiver();
    const { id: webhookId, secret: old } = await register(target.url, ['document.uploaded']);

    const rotated = await admin.post(`/api/webhooks/${webhookId}/rotate-secret`);
    await uploadPng();
    await until(() => target.received.length >= 1, 20_000, 'a delivery');

    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(old);
    const [delivered] = target.received;
    expect(String(delivered!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifies(old, delivered!)).toBe(true);
    expect(verifies(rotated.body.secret, delivered!)).toBe(true);
  });

  it('sends a ping on request, queued as a delivery', async () => {
    const target = await receiver();
    const { id: webhookId, secret } = await register(target.url, ['document.deleted']);

    const tested = await admin.post(`/api/webhooks/${webhookId}/test`);
    await until(() => target.ofType('ping').length === 1, 20_000, 'the ping');

    expect(tested.status).toBe(202);
    expect(tested.body).toMatchObject({ type: 'ping', state: 'pending', attempts: 0 });
    expect(target.received[0]!.headers['webhook-id']).toBe(tested.body.id);
    expect(verifies(secret, target.received[0]!)).toBe(true);
  });

  it('keeps delivering to a healthy endpoint while another never answers, holding at most two attempts open to the dead one', async () => {
    const healthy = await receiver();
    const dead = await receiver(() => 'hang');
    await register(dead.url, ['document.uploaded']);
    await register(healthy.url, ['document.uploaded']);

    const ids = await Promise.all(Array.from({ length: 8 }, () => uploadPng()));
    await until(() => ids.every((id) => healthy.received.some((w) => w.json.data.document.id === id)), 25_000, 'every delivery to the healthy endpoint');

    expect(dead.maxOpen()).toBeLessThanOrEqual(2);
  }, 40_000);

  it('is for admins only: an editor gets 403, another workspace 404', async () => {
    const { client: editor } = await admin.addMember('editor', 'hooker');
    const { client: stranger } = await anonymous.signUp('hooks-other');
    const { id } = await register('http://127.0.0.1:9/hooks', ['document.uploaded']);

    const byEditor = await editor.post('/api/webhooks', { url: 'http://127.0.0.1:9/x', events: ['document.uploaded'] });
    const byStranger = await stranger.get(`/api/webhooks/${id}`);

    expect(byEditor.status).toBe(403);
    expect(byStranger.status).toBe(404);
    expect(byStranger.body.error.code).toBe('NOT_FOUND');
  });

  it('refuses an unknown event type or a URL with credentials with a 400 naming the field', async () => {
    const unknownEvent = await admin.post('/api/webhooks', { url: 'http://127.0.0.1:9/x', events: ['document.exploded'] });
    const withCredentials = await admin.post('/api/webhooks', { url: 'http://user:pw@127.0.0.1:9/x', events: ['document.uploaded'] });

    expect(unknownEvent.status).toBe(400);
    expect(JSON.stringify(unknownEvent.body.error.details)).toContain('events');
    expect(withCredentials.status).toBe(400);
    expect(JSON.stringify(withCredentials.body.error.details)).toContain('url');
  });
});

/** The address policy with private networks refused, as in the cloud: no delivery reaches loopback. */
describe('webhooks with WEBHOOKS_ALLOW_PRIVATE_NETWORKS=false', () => {
  let runtime: Awaited<ReturnType<typeof startRuntimeProcess>>;
  let target: WebhookReceiver;

  beforeAll(async () => {
    [runtime, target] = await Promise.all([
      startRuntimeProcess({ env: { WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'false', ADMIN_USERNAME: 'guard-admin', ADMIN_PASSWORD: 'guard-admin-password' } }),
      startWebhookReceiver(),
    ]);
  });

  afterAll(async () => {
    await Promise.all([runtime?.stop(), target?.close()]);
  });

  it('records address_not_allowed and sends nothing to a loopback endpoint', async () => {
    const admin = await new ApiClient(runtime.baseUrl).login('guard-admin', 'guard-admin-password');
    const created = await admin.post('/api/webhooks', { url: target.url.replace('127.0.0.1', 'localhost'), events: ['document.uploaded'] });

    const ping = await admin.post(`/api/webhooks/${created.body.id}/test`);
    const { body } = await eventually(
      () => admin.get(`/api/webhooks/${created.body.id}/deliveries`),
      (r) => Boolean(r.body.data[0]?.last_attempt_at),
      20_000,
      'the first attempt recorded',
    );

    expect(ping.status).toBe(202);
    expect(body.data[0]).toMatchObject({ id: ping.body.id, last_error: 'address_not_allowed', last_status_code: null, state: 'pending' });
    expect(target.received).toHaveLength(0);
  });
});
