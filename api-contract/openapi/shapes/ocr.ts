import * as z from '../../../shared/zod';
import { OCR_JOB_STATUSES, OCR_PRIORITIES } from '../../../shared/domain/ocr/jobs';
import { pageOf } from './common';
import { id, shape, timestamp } from './registry';

const count = () => z.int().check(z.gte(0));
const seconds = () => z.number().check(z.gte(0));

/** A document's OCR job, as the queue holds it (shared/domain/ocr/jobs.ts `OcrJob`). */
export const OcrJob = shape(
  'OcrJob',
  "A document's OCR job (one per document; its id is the document's id). `deferred_until` is present only on a queued job the OCR engine was throttling: it is not taken before then.",
  z.strictObject({
    id: id(),
    document_id: id(),
    status: z.enum(OCR_JOB_STATUSES),
    priority: z.enum(OCR_PRIORITIES),
    language: z.string(),
    run: z.int().check(z.gte(1)),
    attempts: count(),
    progress: z.int().check(z.gte(0), z.lte(100)),
    pages: z.nullable(count()),
    cancel_requested: z.boolean(),
    failure_reason: z.nullable(z.string()),
    created_by: z.string(),
    queued_at: timestamp(),
    started_at: z.nullable(timestamp()),
    heartbeat_at: z.nullable(timestamp()),
    finished_at: z.nullable(timestamp()),
    processing_time: z.nullable(seconds()),
    deferred_until: z.optional(timestamp()),
  }),
);

/** A page of OCR jobs. */
export const OcrJobPage = shape('OcrJobPage', 'One page of OCR jobs.', pageOf(OcrJob));

/** A new OCR run of a document, queued. */
export const OcrRetryResult = shape(
  'OcrRetryResult',
  "A new OCR run of the document, queued: `id` is the document's (and its job's) id.",
  z.strictObject({
    id: id(),
    status: z.literal('pending'),
    priority: z.enum(OCR_PRIORITIES),
    language: z.string(),
    message: z.string(),
  }),
);

/** What cancelling an OCR job did. */
export const OcrCancellation = shape(
  'OcrCancellation',
  'A queued job is `cancelled` at once; a processing one is `cancelling` until its worker stops at its next page.',
  z.strictObject({ id: id(), status: z.enum(['cancelled', 'cancelling']) }),
);

/** The queue's counters and when it should be empty. */
export const OcrQueueStatus = shape(
  'OcrQueueStatus',
  "The workspace's OCR queue: jobs waiting and running, today's completions, documents whose last run failed, and an estimate of when the queue is empty.",
  z.strictObject({
    pending: count(),
    processing: count(),
    completed_today: count(),
    failed: count(),
    average_processing_time: seconds(),
    estimated_completion: timestamp(),
  }),
);

/** One day of OCR runs. */
export const OcrDailyStats = shape(
  'OcrDailyStats',
  'The OCR runs that finished on one day (UTC).',
  z.strictObject({
    date: z.iso.date(),
    processed: count(),
    completed: count(),
    failed: count(),
    average_processing_time: seconds(),
  }),
);

/** The workspace's OCR totals. */
export const OcrMetrics = shape(
  'OcrMetrics',
  "The workspace's finished OCR runs (cancelled ones excluded): totals, success rate, mean time, runs per language and the last 30 days with runs.",
  z.strictObject({
    total_processed: count(),
    success_rate: z.number().check(z.gte(0), z.lte(1)),
    average_processing_time: seconds(),
    languages_used: z.record(z.string(), count()),
    daily_stats: z.array(OcrDailyStats),
  }),
);
