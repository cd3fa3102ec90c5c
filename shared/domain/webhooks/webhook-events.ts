import { createHash } from 'node:crypto';
import type { ItemChange } from '../changes/ports';
import { REPORTED_FIELDS, toSummary, type DocumentRecord } from '../documents/document';
import { toSyncStatusView } from '../sources/sync-job';
import type { WebhookEventType } from './ports';

/** An event a change calls for, before it is addressed to endpoints. */
export interface WebhookEvent {
  /** `evt_…`, derived from the change: the same change delivered again gives the same id. */
  id: string;
  type: WebhookEventType;
  workspace_id: string;
  created_at: string;
  data: Record<string, unknown>;
}

/**
 * The webhook events a table change calls for. Pure: the same change gives the same events with the same ids.
 * - a document inserted: `document.uploaded`, and `label.assigned` per label it came with;
 * - a document modified: `document.updated` when a field users see changed (`data.changes` names them),
 *   `ocr.completed` / `ocr.failed` when its status became completed / failed, `label.assigned` per label added;
 * - a document removed: `document.deleted`;
 * - a sync that completed: `source.sync.completed` with its counts.
 * Documents are sent with their P fields (never their text).
 */
export function webhookEventsOf(change: ItemChange): WebhookEvent[] {
  const event = (type: WebhookEventType, data: Record<string, unknown>, part = ''): WebhookEvent => ({
    id: eventId(change.id, type, part),
    type,
    workspace_id: (change as { workspaceId: string }).workspaceId,
    created_at: change.at,
    data,
  });
  switch (change.entity) {
    case 'document':
      return documentEvents(change.old, change.new, event);
    case 'sync_job': {
      const job = change.new;
      if (!job || job.state !== 'completed' || change.old?.state === 'completed') return [];
      return [event('source.sync.completed', { sync: toSyncStatusView(job) })];
    }
    default:
      return [];
  }
}

type Make = (type: WebhookEventType, data: Record<string, unknown>, part?: string) => WebhookEvent;

function documentEvents(old: DocumentRecord | null, next: DocumentRecord | null, event: Make): WebhookEvent[] {
  if (!next) return old ? [event('document.deleted', { document: toSummary(old) })] : [];
  const document = toSummary(next);
  const events: WebhookEvent[] = [];
  if (!old) events.push(event('document.uploaded', { document }));
  else {
    const changes = REPORTED_FIELDS.filter((field) => JSON.stringify(old[field]) !== JSON.stringify(next[field]));
    if (old.sha256 !== next.sha256) changes.push(...(['size', 'mime_type'] as const).filter((field) => !changes.includes(field)));
    if (changes.length) events.push(event('document.updated', { document, changes }));
    if (next.status !== old.status && next.status === 'completed') events.push(event('ocr.completed', { document }));
    if (next.status !== old.status && next.status === 'failed') events.push(event('ocr.failed', { document }));
  }
  const before = new Set(old?.labels ?? []);
  for (const labelId of next.labels) {
    if (!before.has(labelId)) events.push(event('label.assigned', { label_id: labelId, document }, labelId));
  }
  return events;
}

const digest = (text: string): string => createHash('sha256').update(text).digest('base64url').slice(0, 26);

/** An event's id: what it is of which change. */
const eventId = (changeId: string, type: string, part: string): string => `evt_${digest(`${changeId}/${type}/${part}`)}`;

/** A delivery's id (its `webhook-id`): which event to which endpoint, so a change delivered again finds it stored. */
export const deliveryIdOf = (eventIdValue: string, webhookId: string): string => `msg_${digest(`${eventIdValue}/${webhookId}`)}`;
