import { beforeAll, describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoWebhookDeliveryRepository } from '../../../../../shared/adapters/aws/dynamodb/webhook-delivery-repository';
import { DELIVERY_RETENTION_DAYS, type AttemptOutcome, type WebhookDelivery } from '../../../../../shared/domain/webhooks/ports';
import { freshTable } from '../../../../support/aws-resources';

let db: Awaited<ReturnType<typeof freshTable>>['db'];
let tableName: string;

beforeAll(async () => {
  ({ db, tableName } = await freshTable());
});

/** A workspace of its own per test: the table is shared by the file's tests. */
const aWorkspace = () => `w-${crypto.randomUUID()}`;
const deliveriesOf = (workspaceId: string) => new DynamoWebhookDeliveryRepository(db, tableName, workspaceId);

const aDelivery = (workspaceId: string, overrides: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  id: `msg_${crypto.randomUUID().replaceAll('-', '')}`,
  webhook_id: 'wh-1',
  workspace_id: workspaceId,
  event_id: 'evt_1',
  type: 'document.uploaded',
  state: 'pending',
  attempts: 0,
  last_status_code: null,
  last_error: null,
  last_response: null,
  duration_ms: null,
  created_at: '2099-03-01T10:00:00.000Z',
  last_attempt_at: null,
  next_attempt_at: '2099-03-01T10:00:00.000Z',
  payload: '{"id":"evt_1"}',
  ...overrides,
});

// Fixture times lie in the future: DynamoDB Local deletes, at any moment, an item whose TTL (a delivery's
// created_at + 30 days) has passed, which would take a past-dated delivery away mid-test.
const NOW = '2099-03-01T10:00:05.000Z';
const LEASE = '2099-03-01T10:00:35.000Z';

describe('DynamoWebhookDeliveryRepository', () => {
  it('stores a delivery once, with its expiry, and answers false for the same id again', async () => {
    // Arrange
    const workspace = aWorkspace();
    const repo = deliveriesOf(workspace);
    const delivery = aDelivery(workspace);

    // Act
    const first = await repo.createIfAbsent(delivery);
    const again = await repo.createIfAbsent({ ...delivery, payload: '{"id":"other"}' });

    // Assert
    expect(first).toBe(true);
    expect(again).toBe(false);
    expect(await repo.get(delivery.id)).toEqual(delivery);
    const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: { pk: `WS#${workspace}#WHDELIVERY#${delivery.id}`, sk: 'META' } }));
    expect(Item?.['ttl']).toBe(Math.ceil((Date.parse(delivery.created_at) + DELIVERY_RETENTION_DAYS * 86_400_000) / 1000));
  });

  it('lets one worker claim attempt n+1 of a pending delivery that has made n attempts', async () => {
    // Arrange
    const workspace = aWorkspace();
    const repo = deliveriesOf(workspace);
    const delivery = aDelivery(workspace, { attempts: 2 });
    await repo.createIfAbsent(delivery);

    // Act
    const claimed = await repo.claim(delivery.id, 2, NOW, LEASE);

    // Assert
    expect(claimed).toBe(true);
    expect(await repo.get(delivery.id)).toEqual({ ...delivery, attempts: 3 });
  });

  it('refuses a second claim while the lease is held', async () => {
    // Arrange
    const workspace = aWorkspace();
    const repo = deliveriesOf(workspace);
    const delivery = aDelivery(workspace);
    await repo.createIfAbsent(delivery);
    await repo.claim(delivery.id, 0, NOW, LEASE);

    // Act
    const second = await repo.claim(delivery.id, 1, '2099-03-01T10:00:06.000Z', '2099-03-01T10:00:36.000Z');

    // Assert
    expect(second).toBe(false);
    expect((await repo.get(delivery.id))?.attempts).toBe(1);
  });

  it('lets another worker claim once the lease has run out', async () => {
    // Arrange
    const workspace = aWorkspace();
    const repo = deliveriesOf(workspace);
    const delivery = aDelivery(workspace);
    await repo.createIfAbsent(delivery);
    await repo.claim(delivery.id, 0, NOW, LEASE);

    // Act
    const later = await repo.claim(delivery.id, 1, '2099-03-01T10:01:00.000Z', '2099-03-01T10:01:30.000Z');

    // Assert
    expect(later).toBe(true);
    expect((await repo.get(delivery.id))?.attempts).toBe(2);
  });

  it('lets the same attempt be claimed again once the lease of a worker that died before recording it has run out', async () => {
    // Arrange
    const workspace = aWorkspace();
    const repo = deliveriesOf(workspace);
    const delivery = aDelivery(workspace);
    await repo.createIfAbsent(delivery);
    await repo.claim(delivery.id, 0, NOW, LEASE);

    // Act
    const whileHeld = await repo.claim(delivery.id, 0, '2099-03-01T10:00:06.000Z', '2099-03-01T10:00:36.000Z');
    const afterLease = await repo.claim(delivery.id, 0, '2099-03-01T10:01:00.000Z', '2099-03-01T10:01:30.000Z');

    // Assert
    expect(whileHeld).toBe(false);
    expect(afterLease).toBe(true);
    expect((await repo.get(delivery.id))?.attempts).toBe(1);
  });

  it('refuses a claim for the wrong number of attempts, or of a delivery no longer pending or unknown', async () => {
    // Arrange
    const workspace = aWorkspace();
    const repo = deliveriesOf(workspace);
    const pending = aDelivery(workspace, { attempts: 1 });
    const done = aDelivery(workspace, { state: 'succeeded' });
    await repo.createIfAbsent(pending);
    await repo.createIfAbsent(done);

    // Act
    const outcomes = [await repo.claim(pending.id, 0, NOW, LEASE), await repo.claim(done.id, 0, NOW, LEASE), await repo.claim('msg_unknown', 0, NOW, LEASE)];

    // Assert
    expect(outcomes).toEqual([false, false, false]);
    expect(await repo.get(pending.id)).toEqual(pending);
    expect(await repo.get('msg_unknown')).toBeNull();
  });

  it('finds an endpoint\'s pending deliveries created since a time, not finished or older ones', async () => {
    // Arrange
    const workspace = aWorkspace();
    const repo = deliveriesOf(workspace);
    const recent = aDelivery(workspace, { created_at: '2099-03-01T10:00:00.000Z' });
    const finished = aDelivery(workspace, { created_at: '2099-03-01T10:00:01.000Z', state: 'succeeded' });
    const old = aDelivery(workspace, { created_at: '2099-02-27T10:00:00.000Z' });
    for (const d of [recent, finished, old]) await repo.createIfAbsent(d);

    // Act
    const pending = await repo.pendingSince(recent.webhook_id, '2099-02-28T10:00:00.000Z');

    // Assert
    expect(pending.map((d) => d.id)).toEqual([recent.id]);
  });

  it('records what the attempt met and lets the lease go, so the next attempt can be claimed at once', async () => {
    // Arrange
    const workspace = aWorkspace();
    const repo = deliveriesOf(workspace);
    const delivery = aDelivery(workspace);
    await repo.createIfAbsent(delivery);
    await repo.claim(delivery.id, 0, NOW, LEASE);
    const outcome: AttemptOutcome = {
      state: 'pending',
      last_status_code: 500,
      last_error: null,
      last_response: 'oops',
      duration_ms: 41,
      last_attempt_at: NOW,
      next_attempt_at: '2099-03-01T10:00:10.000Z',
    };

    // Act
    await repo.record(delivery.id, outcome);

    // Assert
    expect(await repo.get(delivery.id)).toEqual({ ...delivery, ...outcome, attempts: 1 });
    const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: { pk: `WS#${workspace}#WHDELIVERY#${delivery.id}`, sk: 'META' } }));
    expect(Item).not.toHaveProperty('lease_until');
    expect(await repo.claim(delivery.id, 1, '2099-03-01T10:00:10.000Z', '2099-03-01T10:00:40.000Z')).toBe(true);
  });

  it('records nothing, and does not throw, for a delivery that no longer exists', async () => {
    // Arrange
    const repo = deliveriesOf(aWorkspace());

    // Act
    const recording = repo.record('msg_gone', { state: 'failed', last_status_code: 410, last_error: null, last_response: null, duration_ms: 1, last_attempt_at: NOW, next_attempt_at: null });

    // Assert
    await expect(recording).resolves.toBeUndefined();
    expect(await repo.get('msg_gone')).toBeNull();
  });

  it("lists one endpoint's deliveries newest first, a page at a time, with how many there are", async () => {
    // Arrange
    const workspace = aWorkspace();
    const repo = deliveriesOf(workspace);
    const deliveries = Array.from({ length: 5 }, (_, i) => aDelivery(workspace, { webhook_id: 'wh-list', created_at: `2099-03-01T10:0${i}:00.000Z` }));
    for (const delivery of deliveries) await repo.createIfAbsent(delivery);
    await repo.createIfAbsent(aDelivery(workspace, { webhook_id: 'wh-other' }));
    const newestFirst = [...deliveries].reverse().map((delivery) => delivery.id);

    // Act
    const first = await repo.list('wh-list', { page: 1, perPage: 2 });
    const last = await repo.list('wh-list', { page: 3, perPage: 2 });

    // Assert
    expect(first.total).toBe(5);
    expect(first.items.map((delivery) => delivery.id)).toEqual(newestFirst.slice(0, 2));
    expect(first.items[0]).toEqual(deliveries[4]);
    expect(last.total).toBe(5);
    expect(last.items.map((delivery) => delivery.id)).toEqual(newestFirst.slice(4));
  });

  it("never shows another workspace's deliveries", async () => {
    // Arrange
    const [mine, theirs] = [aWorkspace(), aWorkspace()];
    const delivery = aDelivery(mine, { webhook_id: 'wh-shared-id' });
    await deliveriesOf(mine).createIfAbsent(delivery);

    // Act
    const seen = { get: await deliveriesOf(theirs).get(delivery.id), list: await deliveriesOf(theirs).list('wh-shared-id', { page: 1, perPage: 20 }) };

    // Assert
    expect(seen).toEqual({ get: null, list: { items: [], total: 0 } });
  });
});
