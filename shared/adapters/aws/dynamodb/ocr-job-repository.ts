import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DocumentContent } from '../../../domain/files/ports';
import type { CancelOutcome, OcrDailyTotals, OcrJob, OcrJobFilter, OcrJobMessage, OcrJobStatus, OcrPriority, OcrQueueCounters, OcrResult, OcrTotals } from '../../../domain/ocr/jobs';
import type { OcrJobRepository, SearchablePdfState } from '../../../domain/ocr/ports';
import { pageOf, type Page } from '../../../domain/pagination';
import { failedConditions, isConditionFailure } from './errors';
import { dataKeys, type DataKeys, type WorkspaceTable } from './keys';
import type { TransactItem } from './label-membership';
import { countersMove, jobItem, priorityPrefix, toOcrJob, toStoredJob, withoutRev, type StoredOcrJob } from './ocr-job-items';
import { DynamoOcrStatistics } from './ocr-statistics';
import { DynamoSearchablePdfRecords } from './searchable-pdf-records';
import { NO_STORAGE_LIMITS, workspaceStorageLedger, type StorageLimits } from './storage-ledger';
import { systemClock, type Clock } from '../../../domain/clock';
import { queryAll } from './queries';
import { LOST_RACE, retryLostRaces } from '../../../domain/optimistic-retry';
import { monthOf } from '../../../domain/usage/usage';
import { usageMove } from './usage-repository';

type Item = Record<string, unknown>;

/** The document status that mirrors each job status. */
const DOCUMENT_STATUS: Record<OcrJobStatus, string> = {
  queued: 'pending',
  processing: 'processing',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'failed',
};

/** Statuses listed when the caller names none: the queue proper, jobs not finished. */
const ACTIVE: OcrJobStatus[] = ['processing', 'queued'];

/** Where the document's update sits in a transition's transaction (the job's put is first). */
const DOCUMENT_ITEM = 1;

/** A transition found the document's file replaced since the run read it (see `complete`). */
class FileReplaced extends Error {}

/**
 * OCR jobs (`DOC#id / OCRJOB`, listed per status through gsi1) and the queue counters (`COUNTERS / OCRQUEUE`);
 * the run totals are {@link DynamoOcrStatistics}'. Every transition is one transaction: the job (conditioned on
 * its revision), the document's status, the counters and, when a run ends, the totals; on completion also the
 * text and the pages, by engine, in the workspace's usage of the month.
 */
export class DynamoOcrJobRepository implements OcrJobRepository {
  /** The workspace's keys: every item this repository reads or writes is the workspace's. */
  private readonly keys: DataKeys;
  private readonly table: WorkspaceTable;
  private readonly statistics: DynamoOcrStatistics;
  private readonly searchablePdfs: DynamoSearchablePdfRecords;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    workspaceId: string,
    /** The storage limits of the workspace's plan now: a searchable PDF's bytes count in `bytes_stored`. */
    storageLimits: () => Promise<StorageLimits> = async () => NO_STORAGE_LIMITS,
    clock: Clock = systemClock,
  ) {
    this.table = { tableName, keys: dataKeys(workspaceId) };
    this.keys = this.table.keys;
    this.statistics = new DynamoOcrStatistics(db, this.table);
    this.searchablePdfs = new DynamoSearchablePdfRecords(db, this.table, workspaceStorageLedger(db, tableName, workspaceId, this.keys, clock), storageLimits);
  }

  async get(documentId: string): Promise<OcrJob | null> {
    const job = await this.read(documentId);
    return job ? withoutRev(job) : null;
  }

  async list(filter: OcrJobFilter): Promise<Page<OcrJob>> {
    const statuses = filter.status ? [filter.status] : ACTIVE;
    const wanted = filter.page * filter.perPage;
    const items: Item[] = [];
    let total = 0;
    for (const status of statuses) {
      const input = {
        TableName: this.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: filter.priority ? 'gsi1pk = :p AND begins_with(gsi1sk, :rank)' : 'gsi1pk = :p',
        ExpressionAttributeValues: {
          ':p': this.keys.ocrJobsIndex(status),
          ...(filter.priority ? { ':rank': priorityPrefix(filter.priority) } : {}),
        },
      };
      const count = await this.count(input);
      total += count;
      if (items.length < wanted && count > 0) items.push(...(await queryAll(this.db, input, wanted - items.length)));
    }
    const start = (filter.page - 1) * filter.perPage;
    return pageOf(items.slice(start, wanted).map(toOcrJob), filter, total);
  }

  async restart(
    documentId: string,
    options: { language: string; priority: OcrPriority; by: string; now: string; heldRun?: number },
  ): Promise<OcrJob | 'busy' | null> {
    return retryLostRaces(
      async () => {
        const [current, document] = await Promise.all([this.read(documentId), this.documentExists(documentId)]);
        if (!document) return null;
        const handedOn = current?.status === 'processing' && current.run === options.heldRun;
        if (current && (current.status === 'queued' || current.status === 'processing') && !handedOn) return 'busy';
        const next: OcrJob = {
          id: documentId,
          document_id: documentId,
          status: 'queued',
          priority: options.priority,
          language: options.language,
          run: (current?.run ?? 0) + 1,
          attempts: 0,
          progress: 0,
          pages: null,
          cancel_requested: false,
          failure_reason: null,
          created_by: options.by,
          queued_at: options.now,
          started_at: null,
          heartbeat_at: null,
          finished_at: null,
          processing_time: null,
        };
        const won = await this.transition(current, next, options.now, {
          SET: { language: options.language, ocr_enabled: true },
          REMOVE: ['failure_reason'],
        });
        if (won) return next;
        return LOST_RACE;
      },
      () => {
        throw new Error(`OCR job ${documentId} kept changing while being restarted`);
      },
    );
  }

  async claim(message: OcrJobMessage, now: string, staleBefore: string): Promise<OcrJob | null> {
    const current = await this.read(message.documentId);
    if (!current || current.run !== message.run) return null;
    const abandoned = current.status === 'processing' && (current.heartbeat_at ?? '') < staleBefore;
    if (current.status !== 'queued' && !abandoned) return null;
    const next: OcrJob = {
      ...withoutRev(current),
      status: 'processing',
      attempts: current.attempts + 1,
      progress: 0,
      started_at: now,
      heartbeat_at: now,
    };
    return (await this.transition(current, next, now)) ? next : null;
  }

  async heartbeat(documentId: string, run: number, progress: number, pages: number, now: string): Promise<{ cancelRequested: boolean }> {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.keys.ocrJob(documentId),
          UpdateExpression: 'SET progress = :progress, pages = :pages, heartbeat_at = :now',
          ConditionExpression: '#run = :run AND #status = :processing',
          ExpressionAttributeNames: { '#run': 'run', '#status': 'status' },
          ExpressionAttributeValues: { ':progress': progress, ':pages': pages, ':now': now, ':run': run, ':processing': 'processing' },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return { cancelRequested: Attributes?.['cancel_requested'] === true };
    } catch (error) {
      // The run lost the job (cancelled while queued, deleted, restarted): stop as a cancel would.
      if (isConditionFailure(error)) return { cancelRequested: true };
      throw error;
    }
  }

  async complete(
    documentId: string,
    run: number,
    result: OcrResult & { content: DocumentContent; readSha256: string },
    now: string,
  ): Promise<'completed' | 'cancel_requested' | 'not_held' | 'file_replaced'> {
    return retryLostRaces<'completed' | 'cancel_requested' | 'not_held' | 'file_replaced'>(
      async () => {
        const current = await this.read(documentId);
        if (!current || current.run !== run || current.status !== 'processing') return 'not_held';
        // The condition on the revision makes this read the last word: a cancel after it makes the write lose.
        if (current.cancel_requested) return 'cancel_requested';
        const next: OcrJob = {
          ...withoutRev(current),
          status: 'completed',
          progress: 100,
          pages: result.pages,
          finished_at: now,
          heartbeat_at: now,
          processing_time: result.processingTime,
        };
        // On condition that the document's file is still the one the run read: a sync may replace it meanwhile.
        const won = await this.transition(
          current,
          next,
          now,
          {
            SET: { ocr_confidence: result.confidence, pages: result.pages, pages_ocred_by_engine: result.pagesByEngine },
            REMOVE: ['failure_reason'],
            sha256: result.readSha256,
          },
          [
            { Put: { TableName: this.tableName, Item: { ...this.keys.documentContent(documentId), ...result.content } } },
            ...this.statistics.moves(now, current.language, { completed: 1, processing_seconds: result.processingTime }),
            // A document of blank pages only was read by nobody: no page to count.
            ...(Object.values(result.pagesByEngine).some((pages) => pages > 0) ? [usageMove(this.table, monthOf(now), { pages: result.pagesByEngine })] : []),
          ],
        ).catch((error: unknown) => {
          if (error instanceof FileReplaced) return 'file_replaced' as const;
          throw error;
        });
        if (won === 'file_replaced') return won;
        if (won) return 'completed';
        return LOST_RACE;
      },
      () => 'not_held',
    );
  }

  async fail(documentId: string, run: number, reason: string, now: string, status: 'failed' | 'cancelled' = 'failed'): Promise<boolean> {
    return retryLostRaces(
      async () => {
        const current = await this.read(documentId);
        if (!current || current.run !== run || (current.status !== 'processing' && current.status !== 'queued')) return false;
        const next: OcrJob = { ...withoutRev(current), status, failure_reason: reason, finished_at: now };
        // A cancel is the user's choice, not a failure of OCR: it stays out of the success rate.
        const totals = status === 'failed' ? this.statistics.moves(now, current.language, { failed: 1 }) : [];
        const won = await this.transition(current, next, now, { SET: { failure_reason: reason } }, totals);
        if (won) return true;
        return LOST_RACE;
      },
      () => false,
    );
  }

  async defer(documentId: string, run: number, now: string, until: string): Promise<boolean> {
    const current = await this.read(documentId);
    if (!current || current.run !== run || current.status !== 'processing') return false;
    const next: OcrJob = {
      ...withoutRev(current),
      status: 'queued',
      attempts: Math.max(0, current.attempts - 1),
      progress: 0,
      heartbeat_at: null,
      deferred_until: until,
    };
    return this.transition(current, next, now);
  }

  async release(documentId: string, run: number, now: string): Promise<void> {
    const current = await this.read(documentId);
    if (!current || current.run !== run || current.status !== 'processing') return;
    await this.transition(current, { ...withoutRev(current), status: 'queued', heartbeat_at: null }, now);
  }

  async cancel(documentId: string, now: string): Promise<CancelOutcome> {
    return retryLostRaces(
      async () => {
        const current = await this.read(documentId);
        if (!current) return 'not_found';
        if (current.status === 'queued') {
          if (await this.fail(documentId, current.run, 'cancelled', now, 'cancelled')) return 'cancelled';
        } else if (current.status === 'processing') {
          if (await this.putJob(current, { ...withoutRev(current), cancel_requested: true })) return 'requested';
        } else return 'finished';
        return LOST_RACE;
      },
      () => {
        throw new Error(`OCR job ${documentId} kept changing while being cancelled`);
      },
    );
  }

  async setPriority(documentId: string, priority: OcrPriority): Promise<OcrJob | 'not_queued' | null> {
    return retryLostRaces(
      async () => {
        const current = await this.read(documentId);
        if (!current) return null;
        if (current.status !== 'queued') return 'not_queued';
        const next = { ...withoutRev(current), priority };
        if (await this.putJob(current, next)) return next;
        return LOST_RACE;
      },
      () => {
        throw new Error(`OCR job ${documentId} kept changing while its priority was set`);
      },
    );
  }

  async stuck(queuedBefore: string, heartbeatBefore: string): Promise<OcrJob[]> {
    const partition = (status: OcrJobStatus, attribute: string, before: string) =>
      queryAll(this.db, {
        TableName: this.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :p',
        // A deferred job's message is held back by the queue until `deferred_until`: not lost before that.
        FilterExpression: '#at < :before AND (attribute_not_exists(deferred_until) OR deferred_until < :before)',
        ExpressionAttributeNames: { '#at': attribute },
        ExpressionAttributeValues: { ':p': this.keys.ocrJobsIndex(status), ':before': before },
      });
    const [queued, processing] = await Promise.all([
      partition('queued', 'queued_at', queuedBefore),
      partition('processing', 'heartbeat_at', heartbeatBefore),
    ]);
    return [...processing, ...queued].map(toOcrJob);
  }

  async counters(): Promise<OcrQueueCounters> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: this.keys.ocrQueueCounters, ConsistentRead: true }));
    return { pending: Number(Item?.['pending'] ?? 0), processing: Number(Item?.['processing'] ?? 0), failed: Number(Item?.['failed'] ?? 0) };
  }

  totals(): Promise<OcrTotals> {
    return this.statistics.totals();
  }

  daily(fromDate: string, toDate: string): Promise<OcrDailyTotals[]> {
    return this.statistics.daily(fromDate, toDate);
  }

  recordSearchablePdf(documentId: string, readSha256: string, state: SearchablePdfState, now: string): Promise<boolean> {
    return this.searchablePdfs.record(documentId, readSha256, state, now);
  }

  private async read(documentId: string): Promise<StoredOcrJob | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: this.keys.ocrJob(documentId), ConsistentRead: true }));
    return Item ? toStoredJob(Item) : null;
  }

  private async documentExists(documentId: string): Promise<boolean> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: this.keys.document(documentId), ProjectionExpression: 'pk', ConsistentRead: true }),
    );
    return Boolean(Item);
  }

  /**
   * Moves the job from `current` (null: it has no item yet) to `next`, mirrors the status on the document (which
   * must exist, with the file of `document.sha256` when given) and moves the counters, in one transaction. False
   * when another change got there first; throws {@link FileReplaced} when only the document's file changed.
   */
  private async transition(
    current: StoredOcrJob | null,
    next: OcrJob,
    now: string,
    document: { SET?: Record<string, unknown>; REMOVE?: string[]; sha256?: string } = {},
    extra: TransactItem[] = [],
  ): Promise<boolean> {
    const set = Object.entries({ status: DOCUMENT_STATUS[next.status], updated_at: now, ...document.SET });
    const removed = document.REMOVE ?? [];
    // The document's version grows with its status too: the search index orders its updates by it.
    const updateExpression =
      `SET ${set.map((_, i) => `#s${i} = :s${i}`).join(', ')}, #version = #version + :one` +
      (removed.length ? ` REMOVE ${removed.map((_, i) => `#r${i}`).join(', ')}` : '');
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.tableName,
                Item: jobItem(this.keys, next, (current?.rev ?? 0) + 1),
                ...(current
                  ? { ConditionExpression: 'rev = :rev', ExpressionAttributeValues: { ':rev': current.rev } }
                  : { ConditionExpression: 'attribute_not_exists(pk)' }),
              },
            },
            {
              Update: {
                TableName: this.tableName,
                Key: this.keys.document(next.document_id),
                UpdateExpression: updateExpression,
                ConditionExpression: document.sha256 === undefined ? 'attribute_exists(pk)' : 'attribute_exists(pk) AND #sha256 = :sha256',
                ExpressionAttributeNames: {
                  ...Object.fromEntries(set.map(([field], i) => [`#s${i}`, field])),
                  ...Object.fromEntries(removed.map((field, i) => [`#r${i}`, field])),
                  '#version': 'version',
                  ...(document.sha256 === undefined ? {} : { '#sha256': 'sha256' }),
                },
                ExpressionAttributeValues: {
                  ...Object.fromEntries(set.map(([, value], i) => [`:s${i}`, value])),
                  ':one': 1,
                  ...(document.sha256 === undefined ? {} : { ':sha256': document.sha256 }),
                },
              },
            },
            ...countersMove(this.table, current?.status ?? null, next.status),
            ...extra,
          ],
        }),
      );
      return true;
    } catch (error) {
      const failed = failedConditions(error);
      // The job held (its condition passed) but the document's did not: the document is there with another file.
      if (document.sha256 !== undefined && failed?.length === 1 && failed[0] === DOCUMENT_ITEM) throw new FileReplaced();
      if (failed?.length) return false;
      throw error;
    }
  }

  /** Rewrites the job alone (no status change), on condition of its revision. */
  private async putJob(current: StoredOcrJob, next: OcrJob): Promise<boolean> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: jobItem(this.keys, next, current.rev + 1),
          ConditionExpression: 'rev = :rev',
          ExpressionAttributeValues: { ':rev': current.rev },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  private async count(input: { TableName: string; IndexName: string; KeyConditionExpression: string; ExpressionAttributeValues: Item }): Promise<number> {
    let total = 0;
    let cursor: Item | undefined;
    do {
      const page = await this.db.send(new QueryCommand({ ...input, Select: 'COUNT', ExclusiveStartKey: cursor }));
      total += page.Count ?? 0;
      cursor = page.LastEvaluatedKey;
    } while (cursor);
    return total;
  }
}
