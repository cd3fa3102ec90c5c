import type { Clock } from '../clock';
import type { OcrJobRepository } from './ports';

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

export const round = (value: number) => Math.round(value * 1000) / 1000;
