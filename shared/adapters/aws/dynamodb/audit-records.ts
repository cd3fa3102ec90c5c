import type { AttributeValue as SdkAttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { AuditLog } from '../../../domain/audit/ports';
import { logger } from '../../../observability/logger';
import { SYSTEM_ACTOR, type AuditActor, type AuditEntry } from '../../../domain/audit/audit';
import { ACTOR_ATTRIBUTE, type ActorStamp } from './actor-stamp';
import { auditedItem, type AuditedItem, type AuditedKind } from './audited-items';

type Item = Record<string, unknown>;

const plain = (image: Record<string, AttributeValue> | undefined): Item | null =>
  image ? unmarshall(image as Record<string, SdkAttributeValue>) : null;

const stampOf = (item: Item | null): ActorStamp | null => {
  const stamp = item?.[ACTOR_ATTRIBUTE];
  return stamp && typeof stamp === 'object' ? (stamp as ActorStamp) : null;
};

const actorOf = (stamp: ActorStamp): AuditActor => ({
  user_id: stamp.user_id ?? null,
  token_id: stamp.token_id ?? null,
  ip: stamp.ip ?? null,
  user_agent: stamp.user_agent ?? null,
  request_id: stamp.request_id ?? null,
});

/** The attributes that say nothing of a change of state (keys, bookkeeping). */
const BOOKKEEPING = new Set([ACTOR_ATTRIBUTE, 'pk', 'sk', 'gsi1pk', 'gsi1sk', 'ttl', 'version', 'updated_at', 'last_used_at']);

/** Names of the top-level attributes a change set, changed or removed (never their values). */
function changedFields(before: Item, after: Item): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => !BOOKKEEPING.has(name) && JSON.stringify(before[name]) !== JSON.stringify(after[name])).sort();
}

/** The audit log's name of each kind's target. */
const TARGET_TYPE: Record<AuditedKind, string> = {
  document: 'document',
  label: 'label',
  label_assignment: 'document',
  ocr_job: 'ocr_job',
  rule: 'rule',
  source: 'source',
  sync: 'source',
  webhook: 'webhook',
  token: 'token',
  user: 'user',
  settings: 'settings',
  workspace: 'workspace',
  erasure: 'workspace',
  export: 'export',
  import: 'import',
};

/** A name to show beside the target's id: a name or filename, never content. */
function nameOf(kind: AuditedKind, image: Item | null): string | undefined {
  const pick = (field: string) => (typeof image?.[field] === 'string' ? (image[field] as string) : undefined);
  switch (kind) {
    case 'document':
      return pick('filename');
    case 'user':
      return pick('username');
    case 'label':
    case 'rule':
    case 'source':
    case 'token':
    case 'workspace':
      return pick('name');
    case 'webhook':
      return pick('url');
    case 'erasure':
      return pick('workspace_name');
    default:
      return undefined;
  }
}

/** The action a change of an item is, with what it says of the change (field names, a role's or status's from and to). */
function actionOf(item: AuditedItem, event: string, before: Item | null, after: Item | null): { action: string; details?: Record<string, unknown> } | null {
  const type = TARGET_TYPE[item.kind];
  if (item.kind === 'sync') return event === 'INSERT' ? { action: 'source.sync_started', details: { job_id: item.relatedId } } : null;
  if (item.kind === 'label_assignment') {
    if (event === 'MODIFY') return null;
    return { action: event === 'INSERT' ? 'document.labelled' : 'document.unlabelled', details: { label_id: item.relatedId } };
  }
  if (item.kind === 'erasure') {
    if (event === 'INSERT') return { action: 'workspace.deletion_requested' };
    return after?.['status'] === 'completed' && before?.['status'] !== 'completed' ? { action: 'workspace.erased', details: { counts: after['counts'] } } : null;
  }
  if (event === 'INSERT') return { action: item.kind === 'export' || item.kind === 'import' ? `${type}.requested` : `${type}.created` };
  if (event === 'REMOVE') return { action: `${type}.deleted` };
  const fields = changedFields(before ?? {}, after ?? {});
  if (!fields.length) return null;
  const changed = (field: string) => ({ from: before?.[field] ?? null, to: after?.[field] ?? null });
  if (item.kind === 'user' && fields.includes('role')) return { action: 'user.role_changed', details: { role: changed('role'), fields } };
  // A workspace stored without a status is active (workspace-repository.ts): the log says so, not null.
  if (item.kind === 'workspace' && fields.includes('status')) {
    return { action: 'workspace.status_changed', details: { status: { from: before?.['status'] ?? 'active', to: after?.['status'] ?? 'active' }, fields } };
  }
  if (item.kind === 'workspace' && fields.includes('plan')) return { action: 'workspace.plan_changed', details: { plan: changed('plan'), fields } };
  if (item.kind === 'workspace' && fields.includes('name')) return { action: 'workspace.renamed', details: { fields } };
  return { action: `${type}.updated`, details: { fields } };
}

/**
 * Who made a change, from the stamps the DynamoDB client wrote (actor-stamp.ts): an insert or update made in a
 * request carries a stamp the old image did not (a new write id); a delete made in one, the `delete` stamp put
 * just before it. A change with neither was the service's own (a worker's, an expiry, an erasure): only the ones
 * the log records anyway (a scheduled sync, an erasure's end) are recorded, as the system's.
 */
function whoActed(event: string, before: Item | null, after: Item | null): AuditActor | null {
  if (event === 'REMOVE') {
    const stamp = stampOf(before);
    return stamp?.op === 'delete' ? actorOf(stamp) : null;
  }
  const stamp = stampOf(after);
  if (!stamp || stamp.op === 'delete' || stamp.write_id === stampOf(before)?.write_id) return null;
  return actorOf(stamp);
}

const SYSTEM_ACTIONS = new Set(['source.sync_started', 'workspace.erased']);

/**
 * The audit entry a stream record (Lambda's shape; the stream carries new and old images) is, or null: items
 * the log does not follow, the stamp's own changes, and changes the service made on its own.
 */
export function auditEntryOf(record: DynamoDBRecord): AuditEntry | null {
  const stream = record.dynamodb;
  const keys = plain(stream?.Keys);
  const event = record.eventName ?? '';
  if (!stream || typeof keys?.['pk'] !== 'string' || typeof keys['sk'] !== 'string') return null;
  const before = plain(stream.OldImage);
  const after = plain(stream.NewImage);
  const item = auditedItem(keys['pk'], keys['sk'], after ?? before);
  if (!item) return null;
  const described = actionOf(item, event, before, after);
  if (!described) return null;
  const actor = whoActed(event, before, after) ?? (SYSTEM_ACTIONS.has(described.action) ? SYSTEM_ACTOR : null);
  if (!actor) return null;
  const stamp = stampOf(event === 'REMOVE' ? before : after);
  const workspaceId = item.workspaceId ?? stamp?.workspace_id ?? null;
  if (!workspaceId) return null;
  const id = record.eventID ?? `${record.eventSourceARN ?? ''}#${stream.SequenceNumber ?? ''}`;
  const name = nameOf(item.kind, after ?? before);
  return {
    id,
    workspace_id: workspaceId,
    // The stamp's time is the write's, to the millisecond; the stream's own is to the second.
    at: stamp?.at ?? new Date((stream.ApproximateCreationDateTime ?? Date.now() / 1000) * 1000).toISOString(),
    action: described.action,
    actor,
    target: { type: TARGET_TYPE[item.kind], id: item.id, ...(name !== undefined ? { name } : {}) },
    ...(described.details ? { details: described.details } : {}),
  };
}

/**
 * Folds the audit log's derivation into a consumer of the table's stream: each batch's entries are appended
 * (idempotently: an entry's id is its record's) before the consumer runs, so a failure to append fails the
 * batch, which is retried whole (the consumer's own effects are idempotent too). A record that cannot be read
 * records nothing and is logged; the consumer reports it.
 */
export const withAuditTrail =
  (audit: Pick<AuditLog, 'append'>, consumer: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>) =>
  async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    const entries = event.Records.flatMap((record) => {
      try {
        const entry = auditEntryOf(record);
        return entry ? [entry] : [];
      } catch (error) {
        logger.error('audit: a stream record cannot be read', { event_id: record.eventID, error });
        return [];
      }
    });
    if (entries.length) await audit.append(entries);
    return consumer(event);
  };
