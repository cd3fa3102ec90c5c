import { describe, expect, it } from 'vitest';
import { PENDING_HORIZON_MS, resumePendingDeliveries } from '../../../../shared/domain/webhooks/resume-deliveries';
import type { WebhookDelivery, WebhookRecord } from '../../../../shared/domain/webhooks/ports';
import { MemoryDeliveries, MemoryWebhooks, RecordingDeliveryQueue } from './fake-webhooks';

const NOW = new Date('2026-03-02T12:00:00.000Z');

const webhook = (id: string): WebhookRecord => ({
  id,
  workspace_id: 'w-1',
  url: 'https://hooks.example.com/in',
  events: ['document.uploaded'],
  description: null,
  active: true,
  disabled_reason: null,
  failing_since: null,
  secrets: [],
  created_by: 'admin',
  created_at: '2026-03-01T00:00:00.000Z',
  updated_at: '2026-03-01T00:00:00.000Z',
});

const delivery = (id: string, overrides: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  id,
  webhook_id: 'wh-1',
  workspace_id: 'w-1',
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

describe('resumePendingDeliveries', () => {
  it('queues again each pending delivery of the horizon for its next attempt, and nothing finished or older', async () => {
    // Arrange
    const webhooks = new MemoryWebhooks();
    webhooks.byId.set('wh-1', webhook('wh-1'));
    const deliveries = new MemoryDeliveries();
    for (const d of [
      delivery('msg_waiting', { attempts: 3 }),
      delivery('msg_done', { state: 'succeeded' }),
      delivery('msg_old', { created_at: new Date(NOW.getTime() - PENDING_HORIZON_MS - 1000).toISOString() }),
    ]) {
      deliveries.byId.set(d.id, d);
    }
    const deliveryQueue = new RecordingDeliveryQueue();

    // Act
    const resumed = await resumePendingDeliveries({
      workspaces: { list: async () => [{ id: 'w-1', name: 'One', created_at: '2026-03-01T00:00:00.000Z' }] as never },
      inWorkspace: () => ({ webhooks, deliveries }),
      deliveryQueue,
      clock: { now: () => NOW },
    });

    // Assert
    expect(resumed).toBe(1);
    expect(deliveryQueue.sent.map((sent) => sent.message)).toEqual([{ workspace_id: 'w-1', webhook_id: 'wh-1', delivery_id: 'msg_waiting', attempts: 3 }]);
  });
});
