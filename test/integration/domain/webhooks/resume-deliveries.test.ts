import { beforeAll, describe, expect, it } from 'vitest';
import type { WebhookDelivery } from '../../../../shared/domain/webhooks/ports';
import { PENDING_HORIZON_MS, resumePendingDeliveries } from '../../../../shared/domain/webhooks/resume-deliveries';
import { createWebhook } from '../../../../shared/domain/webhooks/create-webhook';
import { input, NOW, webhookStores } from './webhook-stores';

describe('resumePendingDeliveries', () => {
  let stores: Awaited<ReturnType<typeof webhookStores>>;

  beforeAll(async () => {
    stores = await webhookStores();
  });

  /** A workspace stored in the table (as the sweep lists them) with one endpoint. */
  const workspaceWithEndpoint = async () => {
    const world = stores.setup();
    await stores.workspaces.create({ id: world.deps.workspaceId, name: 'Hooks', created_at: NOW.toISOString() });
    const endpoint = await createWebhook(world.deps, world.admin, input);
    const delivery = (id: string, overrides: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
      id,
      webhook_id: endpoint.id,
      workspace_id: world.deps.workspaceId,
      event_id: `evt_${id}`,
      type: 'document.uploaded',
      state: 'pending',
      attempts: 0,
      last_status_code: null,
      last_error: null,
      last_response: null,
      duration_ms: null,
      created_at: new Date(NOW.getTime() - 60_000).toISOString(),
      last_attempt_at: null,
      next_attempt_at: null,
      payload: '{}',
      ...overrides,
    });
    return { ...world, endpoint, delivery };
  };

  const resume = () =>
    resumePendingDeliveries({
      workspaces: stores.workspaces,
      inWorkspace: (workspaceId) => stores.setup(workspaceId),
      deliveryQueue: stores.deliveryQueue,
      clock: { now: () => NOW },
    });

  it('queues again each pending delivery of the horizon for its next attempt, and nothing finished or older', async () => {
    // Arrange
    const { deliveries, delivery, endpoint, deps, queued } = await workspaceWithEndpoint();
    for (const d of [
      delivery('msg_waiting', { attempts: 3 }),
      delivery('msg_done', { state: 'succeeded' }),
      delivery('msg_old', { created_at: new Date(NOW.getTime() - PENDING_HORIZON_MS - 1000).toISOString() }),
    ]) {
      await deliveries.createIfAbsent(d);
    }

    // Act
    await resume();

    // Assert
    expect(await queued()).toEqual([{ workspace_id: deps.workspaceId, webhook_id: endpoint.id, delivery_id: 'msg_waiting', attempts: 3 }]);
  });

  it('counts the deliveries it queued again in every workspace', async () => {
    // Arrange
    const own = await webhookStores();
    const worlds = [own.setup(), own.setup()];
    for (const [i, world] of worlds.entries()) {
      await own.workspaces.create({ id: world.deps.workspaceId, name: `Hooks ${i}`, created_at: NOW.toISOString() });
      const endpoint = await createWebhook(world.deps, world.admin, input);
      await world.deliveries.createIfAbsent({
        id: `msg_${i}`,
        webhook_id: endpoint.id,
        workspace_id: world.deps.workspaceId,
        event_id: `evt_${i}`,
        type: 'document.uploaded',
        state: 'pending',
        attempts: 0,
        last_status_code: null,
        last_error: null,
        last_response: null,
        duration_ms: null,
        created_at: NOW.toISOString(),
        last_attempt_at: null,
        next_attempt_at: null,
        payload: '{}',
      });
    }

    // Act
    const resumed = await resumePendingDeliveries({
      workspaces: own.workspaces,
      inWorkspace: (workspaceId) => worlds.find((world) => world.deps.workspaceId === workspaceId)!,
      deliveryQueue: own.deliveryQueue,
      clock: { now: () => NOW },
    });

    // Assert
    expect(resumed).toBe(2);
    expect([...(await worlds[0]!.queued()), ...(await worlds[1]!.queued())].map((message) => message.delivery_id).sort()).toEqual(['msg_0', 'msg_1']);
  });
});
