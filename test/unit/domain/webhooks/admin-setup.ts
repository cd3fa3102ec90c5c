import { expect } from 'vitest';
import { AppError } from '../../../../shared/domain/errors';
import type { Principal } from '../../../../shared/domain/principal';
import type { NewWebhook } from '../../../../shared/domain/webhooks/create-webhook';
import type { WebhookAdminDeps } from '../../../../shared/domain/webhooks/manage-deps';
import { MemoryDeliveries, MemoryWebhooks, PrefixVault, RecordingDeliveryQueue } from './fake-webhooks';

/** What the admin's webhook use cases are tested with: one workspace's endpoints and deliveries in memory, a clock set by hand. */
export const NOW = new Date('2026-03-01T10:00:00.000Z');
export const LATER = new Date('2026-03-02T12:00:00.000Z');

export const admin: Principal = {
  userId: 'admin-1',
  username: 'ada',
  email: 'ada@example.com',
  role: 'admin',
  workspaceId: 'w-1',
  jti: 'j-1',
  tokenExpiresAt: new Date('2026-03-01T11:00:00Z'),
};

export const input: NewWebhook = { url: 'https://hooks.example.com/in', events: ['document.uploaded', 'ocr.completed', 'document.uploaded'], description: 'CRM sync', active: true };

export const setup = () => {
  const webhooks = new MemoryWebhooks();
  const deliveries = new MemoryDeliveries();
  const deliveryQueue = new RecordingDeliveryQueue();
  const vault = new PrefixVault();
  let date = NOW;
  const deps: WebhookAdminDeps = { workspaceId: 'w-1', webhooks, deliveries, deliveryQueue, vault, clock: { now: () => date } };
  return { deps, webhooks, deliveries, deliveryQueue, vault, setNow: (next: Date) => (date = next) };
};

export const refusal = async (promise: Promise<unknown>): Promise<AppError> => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
};

