import type { DocumentContent } from '../files/ports';
import type { Page, PageRequest } from '../pagination';

export const OCR_PRIORITIES = ['normal', 'high'] as const;
export type OcrPriority = (typeof OCR_PRIORITIES)[number];

export const OCR_JOB_STATUSES = ['queued', 'processing', 'completed', 'failed', 'cancelled'] as const;
export type OcrJobStatus = (typeof OCR_JOB_STATUSES)[number];

/**
 * The OCR job of one document: a queue item. There is one per document (its id is the document's id); a retry
 * starts a new `run` of it, and a queue message for an older run is stale and skipped.
 */
export interface OcrJob {
  id: string;
  document_id: string;
  status: OcrJobStatus;
  priority: OcrPriority;
  language: string;
  run: number;
  /** Deliveries that started work on this run (a crashed or failed worker leaves the next one to retry). */
  attempts: number;
  /** 0..100, per page read. */
  progress: number;
  pages: number | null;
  cancel_requested: boolean;
  failure_reason: string | null;
  created_by: string;
  queued_at: string;
  started_at: string | null;
  /** Renewed while a worker reads pages; a processing job whose heartbeat is old belongs to a dead worker. */
  heartbeat_at: string | null;
  finished_at: string | null;
  /** Seconds from start to finish of the successful run. */
  processing_time: number | null;
  /** A queued job put back because the OCR engine was throttling is not taken before this time. */
  deferred_until?: string;
}

/** The first run of a new document's job, queued. */
export function newOcrJob(
  document: { id: string; language: string; created_by: string },
  priority: OcrPriority,
  now: string,
): OcrJob {
  return {
    id: document.id,
    document_id: document.id,
    status: 'queued',
    priority,
    language: document.language,
    run: 1,
    attempts: 0,
    progress: 0,
    pages: null,
    cancel_requested: false,
    failure_reason: null,
    created_by: document.created_by,
    queued_at: now,
    started_at: null,
    heartbeat_at: null,
    finished_at: null,
    processing_time: null,
  };
}

/** The message on the OCR queue; everything else is read from the job. */
export interface OcrJobMessage {
  documentId: string;
  run: number;
  priority: OcrPriority;
  /** Times this run was put back on the queue because the OCR engine was throttling: those are not attempts. */
  deferrals?: number;
}

/** What a finished read leaves on the document. */
export interface OcrResult {
  text: string;
  confidence: number;
  pages: number;
  processingTime: number;
  /** What read the pages (`tesseract`, `textract`, `text_layer`): the workspace's usage counts pages by it. */
  engine: string;
}

/** The queue-level counters, kept exact in the same transactions as the status changes (never counted by scan). */
export interface OcrQueueCounters {
  pending: number;
  processing: number;
  /** Documents whose last OCR run failed or was cancelled. */
  failed: number;
}

/** Totals of finished runs, overall or for one day. */
export interface OcrTotals {
  completed: number;
  failed: number;
  /** Sum of the processing times of completed runs, in seconds. */
  processing_seconds: number;
  /** Finished runs by language (as requested, e.g. `eng+deu`). */
  languages: Record<string, number>;
}

export interface OcrDailyTotals extends OcrTotals {
  date: string;
}

export interface OcrJobFilter extends PageRequest {
  status?: OcrJobStatus | undefined;
  priority?: OcrPriority | undefined;
}

export type CancelOutcome = 'cancelled' | 'requested' | 'finished' | 'not_found';

/**
 * OCR jobs with their documents' status and the counters: every transition moves the job, the document's
 * status and the counters in one transaction, conditioned on the job's current state, so that two workers (a
 * message delivered twice) can never both win and counters never drift.
 */
export interface OcrJobRepository {
  get(documentId: string): Promise<OcrJob | null>;
  list(filter: OcrJobFilter): Promise<Page<OcrJob>>;
  /**
   * Starts a new run for an existing document whose job is not queued or processing: the job is queued and
   * the document pending. Returns the job, or null when the document has no job to restart (does not exist),
   * or 'busy' when a run is already queued or processing (unless it is `heldRun`, processing: the worker that
   * holds it hands the job on to a new run).
   */
  restart(documentId: string, options: { language: string; priority: OcrPriority; by: string; now: string; heldRun?: number }): Promise<OcrJob | 'busy' | null>;
  /**
   * Takes the job for this run: queued → processing, or processing whose heartbeat is older than `staleBefore`
   * (its worker died). Null when the run is stale, finished, cancelled, or held by a live worker.
   */
  claim(message: OcrJobMessage, now: string, staleBefore: string): Promise<OcrJob | null>;
  /** Renews the heartbeat and progress; tells whether a cancel was asked for meanwhile. */
  heartbeat(documentId: string, run: number, progress: number, pages: number, now: string): Promise<{ cancelRequested: boolean }>;
  /**
   * processing → completed with the text stored and the document completed: 'completed'. Nothing is written when
   * a cancel was asked for meanwhile ('cancel_requested'), the run no longer holds the job ('not_held'), or the
   * document's file is no longer the one the run read, `readSha256` ('file_replaced': a sync replaced it).
   */
  complete(
    documentId: string,
    run: number,
    result: OcrResult & { content: DocumentContent; readSha256: string },
    now: string,
  ): Promise<'completed' | 'cancel_requested' | 'not_held' | 'file_replaced'>;
  /** processing or queued → failed (or cancelled) with the reason on job and document. */
  fail(documentId: string, run: number, reason: string, now: string, status?: 'failed' | 'cancelled'): Promise<boolean>;
  /**
   * processing → queued because the engine was throttling: the delivery does not count as an attempt, and the
   * job is not stuck before `until` (its message comes back then). False when the run no longer holds the job.
   */
  defer(documentId: string, run: number, now: string, until: string): Promise<boolean>;
  /** processing → queued after a transient error, so the redelivered message can claim it again. */
  release(documentId: string, run: number, now: string): Promise<void>;
  /** Cancels a queued job at once, or asks the worker of a processing one to stop. */
  cancel(documentId: string, now: string): Promise<CancelOutcome>;
  /** Changes the priority of a queued job; 'not_queued' once it started or finished. */
  setPriority(documentId: string, priority: OcrPriority): Promise<OcrJob | 'not_queued' | null>;
  /**
   * Jobs queued before `queuedBefore` (a deferred one: deferred until before it) or processing with a heartbeat
   * before `heartbeatBefore`.
   */
  stuck(queuedBefore: string, heartbeatBefore: string): Promise<OcrJob[]>;
  counters(): Promise<OcrQueueCounters>;
  totals(): Promise<OcrTotals>;
  /** Daily totals from `fromDate` to `toDate` (YYYY-MM-DD, inclusive), oldest first; days without runs omitted. */
  daily(fromDate: string, toDate: string): Promise<OcrDailyTotals[]>;
}

/** The longest a queue holds back one message before its first delivery (SQS: 15 minutes). */
export const MAX_QUEUE_DELAY_SECONDS = 900;

/** Puts one workspace's OCR jobs on the queue of their priority. */
export interface OcrJobQueue {
  /** `delaySeconds` (0..{@link MAX_QUEUE_DELAY_SECONDS}) keeps the message invisible that long before its first delivery. */
  enqueue(message: OcrJobMessage, options?: { delaySeconds?: number }): Promise<void>;
}

/** The OCR queues of every workspace; use cases get one workspace's, whose messages carry its id to the worker. */
export interface OcrJobQueues {
  forWorkspace(workspaceId: string): OcrJobQueue;
}
