import type { CredentialVault } from '../../../../shared/domain/sources/ports';
import type {
  AttemptOutcome,
  DeliveryMessage,
  DeliveryQueue,
  WebhookChanges,
  WebhookDelivery,
  WebhookDeliveryRepository,
  WebhookRecord,
  WebhookRepository,
  WebhookRequest,
  WebhookResponse,
  WebhookSender,
} from '../../../../shared/domain/webhooks/ports';

const copy = <T>(value: T): T => structuredClone(value);

/**
 * One workspace's endpoints in memory, as the DynamoDB repository keeps them (its own contract:
 * test/integration/adapters/aws/dynamodb/webhook-repository.test.ts).
 */
export class MemoryWebhooks implements WebhookRepository {
  readonly byId = new Map<string, WebhookRecord>();
  /** Makes every call reject, as a store that is down. */
  failing = false;

  async create(webhook: WebhookRecord, limit: number): Promise<'created' | 'limit'> {
    this.check();
    if (this.byId.size >= limit) return 'limit';
    this.byId.set(webhook.id, copy(webhook));
    return 'created';
  }

  async get(id: string): Promise<WebhookRecord | null> {
    this.check();
    const webhook = this.byId.get(id);
    return webhook ? copy(webhook) : null;
  }

  async list(): Promise<WebhookRecord[]> {
    this.check();
    return [...this.byId.values()].map(copy).sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  }

  async update(id: string, changes: WebhookChanges): Promise<WebhookRecord | null> {
    this.check();
    const webhook = this.byId.get(id);
    if (!webhook) return null;
    const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    const updated = { ...webhook, ...copy(defined) };
    this.byId.set(id, updated);
    return copy(updated);
  }

  async delete(id: string): Promise<boolean> {
    this.check();
    return this.byId.delete(id);
  }

  private check(): void {
    if (this.failing) throw new Error('webhook store unavailable');
  }
}

/** One workspace's deliveries in memory, with the claim's lease as the DynamoDB repository takes it. */
export class MemoryDeliveries implements WebhookDeliveryRepository {
  readonly byId = new Map<string, WebhookDelivery>();
  /** Who holds each delivery, and until when (ISO). */
  readonly leases = new Map<string, string>();
  readonly recorded: { id: string; outcome: AttemptOutcome }[] = [];
  failing = false;

  async createIfAbsent(delivery: WebhookDelivery): Promise<boolean> {
    this.check();
    if (this.byId.has(delivery.id)) return false;
    this.byId.set(delivery.id, copy(delivery));
    return true;
  }

  async get(id: string): Promise<WebhookDelivery | null> {
    this.check();
    const delivery = this.byId.get(id);
    return delivery ? copy(delivery) : null;
  }

  async claim(id: string, attempts: number, now: string, leaseUntil: string): Promise<boolean> {
    this.check();
    const delivery = this.byId.get(id);
    const lease = this.leases.get(id);
    if (!delivery || delivery.state !== 'pending') return false;
    const free = delivery.attempts === attempts && (lease === undefined || lease < now);
    const abandoned = delivery.attempts === attempts + 1 && lease !== undefined && lease < now;
    if (!free && !abandoned) return false;
    delivery.attempts = attempts + 1;
    this.leases.set(id, leaseUntil);
    return true;
  }

  async record(id: string, outcome: AttemptOutcome): Promise<void> {
    this.check();
    this.recorded.push({ id, outcome: copy(outcome) });
    const delivery = this.byId.get(id);
    if (!delivery) return;
    Object.assign(delivery, copy(outcome));
    this.leases.delete(id);
  }

  async pendingSince(webhookId: string, since: string): Promise<WebhookDelivery[]> {
    this.check();
    return [...this.byId.values()].filter((d) => d.webhook_id === webhookId && d.state === 'pending' && d.created_at >= since).map(copy);
  }

  async list(webhookId: string, page: { page: number; perPage: number }): Promise<{ items: WebhookDelivery[]; total: number }> {
    this.check();
    const all = [...this.byId.values()]
      .filter((delivery) => delivery.webhook_id === webhookId)
      .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
    return { items: all.slice((page.page - 1) * page.perPage, page.page * page.perPage).map(copy), total: all.length };
  }

  private check(): void {
    if (this.failing) throw new Error('delivery store unavailable');
  }
}

/** The delivery queue: records each message with the delay it was given. */
export class RecordingDeliveryQueue implements DeliveryQueue {
  readonly sent: { message: DeliveryMessage; delaySeconds: number | undefined }[] = [];

  async enqueue(message: DeliveryMessage, options?: { delaySeconds?: number }): Promise<void> {
    this.sent.push({ message: { ...message }, delaySeconds: options?.delaySeconds });
  }

  get messages(): DeliveryMessage[] {
    return this.sent.map(({ message }) => message);
  }
}

/** A vault that "seals" by a reversible prefix bound to its context, so a test can see what was sealed and for whom. */
export class PrefixVault implements CredentialVault {
  async seal(plaintext: string, context: { workspaceId: string; sourceId: string }): Promise<string> {
    return `sealed:${context.workspaceId}:${context.sourceId}:${Buffer.from(plaintext).toString('base64')}`;
  }

  async open(sealed: string, context: { workspaceId: string; sourceId: string }): Promise<string> {
    const prefix = `sealed:${context.workspaceId}:${context.sourceId}:`;
    if (!sealed.startsWith(prefix)) throw new Error('sealed for another context');
    return Buffer.from(sealed.slice(prefix.length), 'base64').toString();
  }
}

/** An endpoint's answers, in order (the last repeats), and the requests it was sent. */
export class ScriptedSender implements WebhookSender {
  readonly requests: WebhookRequest[] = [];
  private readonly script: WebhookResponse[];

  constructor(...answers: (number | WebhookResponse['error'] | WebhookResponse)[]) {
    this.script = answers.map((answer) =>
      typeof answer === 'number'
        ? { status: answer, error: null, durationMs: 12, body: `status ${answer}` }
        : typeof answer === 'string' || answer === null
          ? { status: null, error: answer, durationMs: 10_000, body: '' }
          : answer,
    );
    if (this.script.length === 0) this.script.push({ status: 200, error: null, durationMs: 12, body: 'ok' });
  }

  async send(request: WebhookRequest): Promise<WebhookResponse> {
    this.requests.push(structuredClone(request));
    const answer = this.script.length > 1 ? this.script.shift()! : this.script[0]!;
    return { ...answer };
  }
}
