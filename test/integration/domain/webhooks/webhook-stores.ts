import { randomBytes } from 'node:crypto';
import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { expect } from 'vitest';
import { DynamoWebhookDeliveryRepository } from '../../../../shared/adapters/aws/dynamodb/webhook-delivery-repository';
import { DynamoWebhookRepository } from '../../../../shared/adapters/aws/dynamodb/webhook-repository';
import { DynamoWorkspaceRepository } from '../../../../shared/adapters/aws/dynamodb/workspace-repository';
import { ensureQueueWithDlq } from '../../../../shared/adapters/aws/provisioning';
import { SqsWebhookDeliveryQueue } from '../../../../shared/adapters/aws/sqs/webhook-delivery-queue';
import { AesGcmCredentialVault } from '../../../../shared/adapters/crypto/aes-gcm-credential-vault';
import { AppError } from '../../../../shared/domain/errors';
import type { Principal } from '../../../../shared/domain/principal';
import type { NewWebhook } from '../../../../shared/domain/webhooks/create-webhook';
import type { WebhookAdminDeps } from '../../../../shared/domain/webhooks/manage-deps';
import type { DeliveryMessage } from '../../../../shared/domain/webhooks/ports';
import { freshTable, testClients, uniqueName } from '../../../support/aws-resources';

// Times lie in the future: DynamoDB Local deletes, at any moment, a delivery whose TTL (created_at + 30 days)
// has passed, which would take a past-dated delivery away mid-test.
export const NOW = new Date('2099-03-01T10:00:00.000Z');
export const LATER = new Date('2099-03-02T12:00:00.000Z');

export const input: NewWebhook = { url: 'https://hooks.example.com/in', events: ['document.uploaded', 'ocr.completed', 'document.uploaded'], description: 'CRM sync', active: true };

/**
 * The webhook use cases' real stores: the endpoints, deliveries and workspaces in DynamoDB Local, secrets sealed
 * by the local AES-GCM vault, deliveries queued on the SQS emulator. `setup()` gives one workspace's
 * stores (a fresh one unless named), with a clock set by hand (at {@link NOW}).
 */
export async function webhookStores() {
  const { db, tableName } = await freshTable();
  const { sqs } = testClients();
  const { queueUrl } = await ensureQueueWithDlq(sqs, uniqueName('webhook-deliveries'), { visibilityTimeoutSeconds: 30 });
  const vault = new AesGcmCredentialVault(randomBytes(32));
  const deliveryQueue = new SqsWebhookDeliveryQueue(sqs, queueUrl);
  /** Messages received from the queue, by workspace, not yet asked for. */
  const received = new Map<string, DeliveryMessage[]>();

  /** The delivery messages sent for the workspace since last asked (others' kept for when they are asked for). */
  const queued = async (workspaceId: string): Promise<DeliveryMessage[]> => {
    for (;;) {
      // No wait: what was sent before this call is visible at once, so an empty receive means there is no more.
      const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
      if (!Messages.length) break;
      for (const message of Messages) {
        const body = JSON.parse(message.Body!) as DeliveryMessage;
        received.set(body.workspace_id, [...(received.get(body.workspace_id) ?? []), body]);
        await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle! }));
      }
    }
    const mine = received.get(workspaceId) ?? [];
    received.delete(workspaceId);
    return mine;
  };

  const setup = (workspaceId: string = crypto.randomUUID()) => {
    const webhooks = new DynamoWebhookRepository(db, tableName, workspaceId);
    const deliveries = new DynamoWebhookDeliveryRepository(db, tableName, workspaceId);
    let date = NOW;
    const deps: WebhookAdminDeps = { workspaceId, webhooks, deliveries, deliveryQueue, vault, clock: { now: () => date } };
    const admin: Principal = {
      userId: 'admin-1',
      username: 'ada',
      email: 'ada@example.com',
      role: 'admin',
      workspaceId,
      jti: 'j-1',
      tokenExpiresAt: new Date(NOW.getTime() + 3_600_000),
    };
    return { deps, admin, webhooks, deliveries, vault, queued: () => queued(workspaceId), setNow: (next: Date) => (date = next) };
  };
  return { setup, deliveryQueue, workspaces: new DynamoWorkspaceRepository(db, tableName) };
}

/** The AppError the promise was refused with (the test fails if it resolved or threw anything else). */
export const refusal = async (promise: Promise<unknown>): Promise<AppError> => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
};
