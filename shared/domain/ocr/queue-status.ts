import type { Clock } from '../clock';
import type { OcrJobRepository } from './ports';
import { round } from './ocr-metrics';

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
