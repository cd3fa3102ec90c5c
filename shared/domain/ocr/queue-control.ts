import type { WorkspaceRepository } from '../workspaces/ports';
import type { Clock } from '../clock';
import { AppError, notFound, validationError } from '../errors';
import type { Page } from '../pagination';
import type { OcrJob, OcrJobFilter, OcrJobQueue, OcrJobRepository, OcrPriority } from './jobs';
import type { OcrEngine } from './ports';
import { getSettings, type SettingsRepository } from '../settings/settings';

/** The engine's languages, to refuse a request the worker could never serve (400 at the API, not a failed job). */
export async function requireOcrLanguage(deps: { ocrLanguages: OcrEngine['languages'] }, language: string, field = 'language'): Promise<void> {
  const installed = await deps.ocrLanguages();
  const missing = language.split('+').filter((code) => !installed.includes(code));
  if (missing.length) {
    throw validationError('This OCR language is not available', [
      { field, reason: `not available: ${missing.join(', ')} (available: ${installed.join(', ')})` },
    ]);
  }
}

/** The language asked for, or else the user's `ocr_default_language` setting. */
export async function ocrLanguageFor(deps: { settings: SettingsRepository }, userId: string, requested: string | undefined): Promise<string> {
  return requested ?? (await getSettings(deps, userId)).ocr_default_language;
}

const busy = (job: { document_id: string; status: string }) =>
  new AppError('DUPLICATE_RESOURCE', 'An OCR job for this document is already queued or processing', {
    resource: 'ocr_job',
    document_id: job.document_id,
    status: job.status,
  });

export interface RetryDeps {
  ocrJobs: OcrJobRepository;
  ocrQueue: OcrJobQueue;
  ocrLanguages: OcrEngine['languages'];
  settings: SettingsRepository;
  clock: Clock;
}

/**
 * Starts a new OCR run of a document (after a failure, a cancel, or to read it again in other languages).
 * 409 while a run is queued or processing.
 */
export async function retryOcr(
  deps: RetryDeps,
  documentId: string,
  request: { language?: string | undefined; priority: OcrPriority; by: string },
): Promise<{ id: string; status: 'pending'; priority: OcrPriority; language: string; message: string }> {
  const language = await ocrLanguageFor(deps, request.by, request.language);
  await requireOcrLanguage(deps, language);
  const job = await deps.ocrJobs.restart(documentId, { ...request, language, now: deps.clock.now().toISOString() });
  if (!job) throw notFound('Document', documentId);
  if (job === 'busy') throw busy((await deps.ocrJobs.get(documentId)) ?? { document_id: documentId, status: 'queued' });
  // A lost send leaves the job queued in the table; the stuck-job sweep sends it again.
  await deps.ocrQueue.enqueue({ documentId, run: job.run, priority: job.priority }).catch(() => undefined);
  return { id: documentId, status: 'pending', priority: job.priority, language: job.language, message: 'OCR queued' };
}

export interface QueueStatus {
  pending: number;
  processing: number;
  completed_today: number;
  failed: number;
  average_processing_time: number;
  estimated_completion: string;
}

/**
 * The queue counters, today's completions and an estimate of when the queue will be empty: the jobs left times
 * the mean processing time, divided by the workers that run side by side.
 */
export async function ocrQueueStatus(deps: { ocrJobs: OcrJobRepository; clock: Clock; ocrWorkers: number }): Promise<QueueStatus> {
  const now = deps.clock.now();
  const today = now.toISOString().slice(0, 10);
  const [counters, totals, days] = await Promise.all([deps.ocrJobs.counters(), deps.ocrJobs.totals(), deps.ocrJobs.daily(today, today)]);
  const average = totals.completed ? totals.processing_seconds / totals.completed : 0;
  const left = counters.pending + counters.processing;
  const seconds = (left * average) / Math.max(1, deps.ocrWorkers);
  return {
    pending: counters.pending,
    processing: counters.processing,
    completed_today: days[0]?.completed ?? 0,
    failed: counters.failed,
    average_processing_time: round(average),
    estimated_completion: new Date(now.getTime() + seconds * 1000).toISOString(),
  };
}

export const listOcrQueue = (deps: { ocrJobs: OcrJobRepository }, filter: OcrJobFilter): Promise<Page<OcrJob>> => deps.ocrJobs.list(filter);

/** Moves a queued job to the other priority's queue; the message still on the old queue finds it taken and is skipped. */
export async function setOcrPriority(
  deps: { ocrJobs: OcrJobRepository; ocrQueue: OcrJobQueue },
  documentId: string,
  priority: OcrPriority,
): Promise<OcrJob> {
  const job = await deps.ocrJobs.setPriority(documentId, priority);
  if (!job) throw notFound('OCR job', documentId);
  if (job === 'not_queued') {
    const current = await deps.ocrJobs.get(documentId);
    throw new AppError('DUPLICATE_RESOURCE', 'Only a queued OCR job can change priority: this one has started or finished', {
      resource: 'ocr_job',
      document_id: documentId,
      status: current?.status ?? 'processing',
    });
  }
  await deps.ocrQueue.enqueue({ documentId, run: job.run, priority });
  return job;
}

/**
 * Cancels a job that has not finished: a queued one at once (its document ends failed with reason
 * `cancelled`), a processing one at its next page (the worker stops there). A finished job is 409.
 */
export async function cancelOcrJob(
  deps: { ocrJobs: OcrJobRepository; clock: Clock },
  documentId: string,
): Promise<{ id: string; status: 'cancelled' | 'cancelling' }> {
  const outcome = await deps.ocrJobs.cancel(documentId, deps.clock.now().toISOString());
  if (outcome === 'not_found') throw notFound('OCR job', documentId);
  if (outcome === 'finished') {
    const job = await deps.ocrJobs.get(documentId);
    throw new AppError('DUPLICATE_RESOURCE', 'This OCR job has already finished', {
      resource: 'ocr_job',
      document_id: documentId,
      status: job?.status ?? 'finished',
    });
  }
  return { id: documentId, status: outcome === 'cancelled' ? 'cancelled' : 'cancelling' };
}

/** What the stuck-job sweep needs, and its bounds. */
export interface OcrSweeperDeps {
  workspaces: Pick<WorkspaceRepository, 'list'>;
  forWorkspace(workspaceId: string): { ocrJobs: OcrJobRepository; ocrQueue: OcrJobQueue };
  clock: Clock;
  /** A job queued this long without being taken is sent again. */
  queuedForSeconds: number;
  /** A processing job silent this long lost its worker and is sent again. */
  silentForSeconds: number;
  /** Every processing job lost its worker (a local runtime that just started): release them all first. */
  orphaned?: boolean;
}

/**
 * Queues again, in every workspace, the jobs nothing is working on: queued too long (their message was lost) or
 * processing without a heartbeat (their worker died). Returns how many were sent again.
 */
export async function requeueStuckJobs(deps: OcrSweeperDeps): Promise<number> {
  const now = deps.clock.now();
  const before = (seconds: number) => new Date(now.getTime() - seconds * 1000).toISOString();
  let requeued = 0;
  for (const workspace of await deps.workspaces.list()) {
    const { ocrJobs, ocrQueue } = deps.forWorkspace(workspace.id);
    const stuck = await ocrJobs.stuck(before(deps.queuedForSeconds), before(deps.silentForSeconds));
    for (const job of stuck) {
      if (deps.orphaned && job.status === 'processing') await ocrJobs.release(job.document_id, job.run, now.toISOString());
      await ocrQueue.enqueue({ documentId: job.document_id, run: job.run, priority: job.priority });
    }
    requeued += stuck.length;
  }
  return requeued;
}

/** Days of history in the OCR metrics. */
export const METRICS_DAYS = 30;

/** OCR metrics from the stored totals: nothing is counted at request time. */
export async function ocrMetrics(deps: { ocrJobs: OcrJobRepository; clock: Clock }) {
  const now = deps.clock.now();
  const from = new Date(now.getTime() - (METRICS_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  const [totals, days] = await Promise.all([deps.ocrJobs.totals(), deps.ocrJobs.daily(from, now.toISOString().slice(0, 10))]);
  const processed = totals.completed + totals.failed;
  return {
    total_processed: processed,
    success_rate: processed ? round(totals.completed / processed) : 0,
    average_processing_time: totals.completed ? round(totals.processing_seconds / totals.completed) : 0,
    languages_used: totals.languages,
    daily_stats: days.map((day) => ({
      date: day.date,
      processed: day.completed + day.failed,
      completed: day.completed,
      failed: day.failed,
      average_processing_time: day.completed ? round(day.processing_seconds / day.completed) : 0,
    })),
  };
}

const round = (value: number) => Math.round(value * 1000) / 1000;
