import type { PageRequest } from '../pagination';

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
  /**
   * Pages by what read them (`text_layer`, `tesseract`, `textract`; a blank page under none): the workspace's
   * usage counts them so, and the document keeps them as `pages_ocred_by_engine`.
   */
  pagesByEngine: Record<string, number>;
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

