import type { AttributeValue as SdkAttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { ChangeOutcome, ItemChange } from '../../../domain/changes/ports';
import { logger } from '../../../observability/logger';
import type { Label } from '../../../domain/labels/label';
import type { OcrQueueCounters } from '../../../domain/ocr/jobs';
import { toConnection } from './connection-items';
import { toDocumentContent, toDocumentRecord } from './document-items';
import { toOcrJob } from './ocr-job-items';
import { toSyncJob } from './sync-job-items';
import { ownerWorkspaceOf, toNotification } from './notification-items';
import { withoutKeys } from './keys';
import { ACTOR_ATTRIBUTE } from './actor-stamp';
import type { ExportJob } from '../../../domain/portability/jobs';

type Item = Record<string, unknown>;

/** The item key shapes of keys.ts that some consumer follows, and the entity each one is. */
const WORKSPACE_ITEM = /^WS#([^#]+)#(DOC|LABEL)#([^#]+)$/;
const WORKSPACE_COUNTERS = /^WS#([^#]+)#COUNTERS$/;
const USER_ITEM = /^USER#([^#]+)$/;
const SYNC_JOBS = /^WS#([^#]+)#SOURCE#([^#]+)#JOBS$/;
const CONNECTION_ITEM = /^CONN#(.+)$/;
const PORTABILITY_ITEM = /^WS#([^#]+)#PORTABILITY$/;

/** Which entity a key names (see `dataKeys` and `keys` in keys.ts), or null for items no consumer follows. */
function entityOf(pk: string, sk: string) {
  const workspaceItem = WORKSPACE_ITEM.exec(pk);
  if (workspaceItem) {
    const [, workspaceId, kind, id] = workspaceItem as unknown as [string, string, string, string];
    if (kind === 'DOC' && sk === 'META') return { entity: 'document', workspaceId, documentId: id } as const;
    if (kind === 'DOC' && sk === 'CONTENT') return { entity: 'document_content', workspaceId, documentId: id } as const;
    if (kind === 'DOC' && sk === 'OCRJOB') return { entity: 'ocr_job', workspaceId, documentId: id } as const;
    if (kind === 'LABEL' && sk === 'META') return { entity: 'label', workspaceId, labelId: id } as const;
    return null;
  }
  const syncJobs = SYNC_JOBS.exec(pk);
  if (syncJobs) return { entity: 'sync_job', workspaceId: syncJobs[1]!, sourceId: syncJobs[2]!, jobId: sk } as const;
  const portability = PORTABILITY_ITEM.exec(pk);
  if (portability && sk.startsWith('EXPORT#')) return { entity: 'export_job', workspaceId: portability[1]!, exportId: sk.slice('EXPORT#'.length) } as const;
  const counters = WORKSPACE_COUNTERS.exec(pk);
  if (counters && sk === 'OCRQUEUE') return { entity: 'ocr_queue_counters', workspaceId: counters[1]! } as const;
  const user = USER_ITEM.exec(pk);
  if (user && sk.startsWith('NOTIFICATION#')) return { entity: 'notification', userId: user[1]!, notificationId: sk.slice('NOTIFICATION#'.length) } as const;
  const connection = CONNECTION_ITEM.exec(pk);
  if (connection && sk === 'META') return { entity: 'connection', connectionId: connection[1]! } as const;
  return null;
}

/** A stream image as plain values (Lambda's JSON shape is the SDK's, binary as base64), without its actor stamp. */
const plain = (image: Record<string, AttributeValue> | undefined): Item | null => {
  if (!image) return null;
  const { [ACTOR_ATTRIBUTE]: _stamp, ...item } = unmarshall(image as Record<string, SdkAttributeValue>);
  return item;
};

/** A change of an item's actor stamp alone (made just before a delete): no consumer of these changes acts on it. */
const stampOnly = (before: Item | null, after: Item | null): boolean => before !== null && after !== null && JSON.stringify(before) === JSON.stringify(after);

/** The queue counters item as numbers, zero where never added to. */
const countersOf = (item: Item): OcrQueueCounters => ({
  pending: Number(item['pending'] ?? 0),
  processing: Number(item['processing'] ?? 0),
  failed: Number(item['failed'] ?? 0),
});

/**
 * The change a DynamoDB stream record (Lambda's shape) describes, or null for an item no consumer follows
 * (memberships, locks, usage, a sync's work list, ...). The table's stream carries new and old images; a record
 * without the image an event needs gives null images, never a guess.
 */
export function changeOf(record: DynamoDBRecord): ItemChange | null {
  const stream = record.dynamodb;
  const keys = plain(stream?.Keys);
  if (!stream || typeof keys?.['pk'] !== 'string' || typeof keys['sk'] !== 'string') return null;
  const kind = entityOf(keys['pk'], keys['sk']);
  if (!kind) return null;
  const oldItem = plain(stream.OldImage);
  const newItem = plain(stream.NewImage);
  if (record.eventName === 'MODIFY' && stampOnly(oldItem, newItem)) return null;
  const base = {
    id: record.eventID ?? `${record.eventSourceARN ?? ''}#${stream.SequenceNumber ?? ''}`,
    sequence: stream.SequenceNumber ?? '0',
    at: new Date((stream.ApproximateCreationDateTime ?? Date.now() / 1000) * 1000).toISOString(),
  };
  const map = <T>(convert: (item: Item) => T) => ({ old: oldItem && convert(oldItem), new: newItem && convert(newItem) });
  switch (kind.entity) {
    case 'document':
      return { ...base, ...kind, ...map(toDocumentRecord) };
    case 'document_content':
      return { ...base, ...kind, ...map(toDocumentContent) };
    case 'ocr_job':
      return { ...base, ...kind, ...map(toOcrJob) };
    case 'ocr_queue_counters':
      return { ...base, ...kind, ...map(countersOf) };
    case 'label':
      return { ...base, ...kind, ...map((item) => withoutKeys<Label>(item)) };
    case 'notification':
      return { ...base, ...kind, workspaceId: ownerWorkspaceOf(newItem ?? oldItem), ...map(toNotification) };
    case 'sync_job':
      return { ...base, ...kind, ...map(toSyncJob) };
    case 'connection':
      return { ...base, ...kind, ...map(toConnection) };
    case 'export_job':
      return { ...base, ...kind, ...map((item) => withoutKeys<ExportJob>(item)) };
  }
}

/**
 * A stream consumer with partial batch failures, as a Lambda event source mapping calls it: the batch's records
 * become changes (records of items no consumer follows are skipped), `consume` applies them in order and names
 * the first it could not apply, and that record's sequence number is reported, so the batch is retried from it
 * (the records before it are done; those of one item stay in order). A record that cannot be read is reported
 * the same way, and only the changes before it are consumed: retried, and in the end sent to the failure
 * destination, it never blocks the shard.
 */
export function streamChangesHandler(
  consumer: string,
  consume: (changes: ItemChange[]) => Promise<ChangeOutcome>,
): (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse> {
  return async (event) => {
    const changes: ItemChange[] = [];
    let unreadable: string | undefined;
    for (const record of event.Records) {
      try {
        const change = changeOf(record);
        if (change) changes.push(change);
      } catch (error) {
        unreadable = record.dynamodb?.SequenceNumber ?? '';
        logger.error(`${consumer}: a stream record cannot be read`, { event_id: record.eventID, sequence_number: unreadable, error });
        break;
      }
    }
    const { failedAt } = await consume(changes);
    const first = failedAt ?? unreadable;
    if (first === undefined) return { batchItemFailures: [] };
    if (failedAt !== undefined) logger.warn(`${consumer}: a change could not be applied, the batch is retried from it`, { sequence_number: failedAt });
    return { batchItemFailures: [{ itemIdentifier: first }] };
  };
}
