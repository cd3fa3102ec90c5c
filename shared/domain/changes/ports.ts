import type { DocumentRecord } from '../documents/document';
import type { DocumentContent } from '../files/ports';
import type { Label } from '../labels/label';
import type { Notification } from '../notifications/notification';
import type { OcrJob, OcrQueueCounters } from '../ocr/jobs';
import type { SyncJob } from '../sources/sync-job';
import type { Connection } from '../connections/ports';
import type { ExportJob } from '../portability/jobs';

/** Where a change sits in its stream and what it is: common to every {@link ItemChange}. */
interface ChangeBase {
  /**
   * The change's own id, the same however often it is delivered (the stream record's eventID): what an
   * idempotent consumer remembers.
   */
  id: string;
  /**
   * Its position in the stream (a decimal string of any length): the changes of one item are delivered in
   * this order. Compare with {@link compareSequences}, never as strings.
   */
  sequence: string;
  /** When the table was written (approximately; ISO 8601). */
  at: string;
}

/** One stored state of an item, before and after: null where the item did not exist (insert) or no longer does (remove). */
interface Images<T> {
  old: T | null;
  new: T | null;
}

/**
 * A change of one item of the table, as the derived views (search index, events) need it, knowing nothing of
 * DynamoDB: which entity of which workspace changed, and its state before and after, with the fields the
 * repositories give the domain (no keys; a document's labels as a sorted list and its `version`). Items no
 * consumer needs are not changes.
 */
export type ItemChange = ChangeBase &
  (
    | ({ entity: 'document'; workspaceId: string; documentId: string } & Images<DocumentRecord>)
    /** The extracted text of a document, inline or as the object that holds it. */
    | ({ entity: 'document_content'; workspaceId: string; documentId: string } & Images<DocumentContent>)
    | ({ entity: 'ocr_job'; workspaceId: string; documentId: string } & Images<OcrJob>)
    | ({ entity: 'ocr_queue_counters'; workspaceId: string } & Images<OcrQueueCounters>)
    | ({ entity: 'label'; workspaceId: string; labelId: string } & Images<Label>)
    /**
     * A user's notification, keyed by the user. `workspaceId` is the owner's workspace its item records (null for
     * an item written before items recorded it).
     */
    | ({ entity: 'notification'; userId: string; notificationId: string; workspaceId: string | null } & Images<Notification>)
    /** One sync of a source: its counters and current file as each step records them. */
    | ({ entity: 'sync_job'; workspaceId: string; sourceId: string; jobId: string } & Images<SyncJob>)
    /** An export of a workspace: its state and progress as the portability worker records them. */
    | ({ entity: 'export_job'; workspaceId: string; exportId: string } & Images<ExportJob>)
    /** A WebSocket connection's record: outside any workspace's keys, like its item. */
    | ({ entity: 'connection'; connectionId: string } & Images<Connection>)
  );

/** Orders two stream sequence numbers (decimal strings longer than a JavaScript number holds). */
export function compareSequences(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Remembers which changes a consumer has acted on, so that a change delivered twice (a retried batch, a
 * redelivery of the stream) has one effect where the effect itself is not idempotent (a pushed event).
 */
export interface ChangeLedger {
  /**
   * Records that `consumer` acts on these changes now, and returns the ids of those it had not acted on before
   * (the others an earlier delivery recorded). Entries outlive the stream's retention (24 hours), after which
   * no delivery can repeat.
   */
  firstDeliveries(consumer: string, changeIds: readonly string[]): Promise<Set<string>>;
}

/** What a consumer of a batch reports: the first change it could not apply, from which the batch is retried. */
export interface ChangeOutcome {
  /** The sequence of the earliest failed change; undefined when every change was applied. */
  failedAt?: string;
}
