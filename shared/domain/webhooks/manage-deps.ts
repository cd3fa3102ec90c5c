import type { Clock } from '../clock';
import type { CredentialVault } from '../sources/ports';
import type { DeliveryQueue, WebhookDeliveryRepository, WebhookRepository } from './ports';

/** What the admin's webhook operations take: one workspace's endpoints and deliveries. */
export interface WebhookAdminDeps {
  workspaceId: string;
  webhooks: WebhookRepository;
  deliveries: WebhookDeliveryRepository;
  /** Where a `ping` goes to be delivered. */
  deliveryQueue: DeliveryQueue;
  /** Seals signing secrets at rest (the sources' vault: AES-GCM locally, KMS in the cloud). */
  vault: CredentialVault;
  clock: Clock;
}

/** The vault's context of an endpoint's secrets: sealed for this endpoint of this workspace and no other. */
export const secretContext = (workspaceId: string, webhookId: string) => ({ workspaceId, sourceId: `webhook:${webhookId}` });
