import { MAX_QUEUE_DELAY_SECONDS } from '../queues';

/** The first pause of a job whose OCR engine was throttling. */
export const THROTTLED_DELAY_BASE_SECONDS = 60;

/**
 * Deferrals of one run before throttling counts as a failed attempt after all: about a day at the longest
 * delay, so a job cannot circle for ever while the engine refuses it.
 */
export const MAX_DEFERRALS = 96;

/**
 * How long a job put back for throttling waits before its next delivery: doubling with each deferral (60, 120,
 * 240, ... seconds, at most the queue's longest delay, 15 minutes), the lower half jittered so that the jobs
 * throttled together do not return together.
 */
export function deferralDelaySeconds(deferrals: number, random: () => number = Math.random): number {
  const nth = Math.max(1, Math.floor(deferrals) || 1);
  const ceiling = Math.min(MAX_QUEUE_DELAY_SECONDS, THROTTLED_DELAY_BASE_SECONDS * 2 ** Math.min(nth - 1, 30));
  return Math.ceil(ceiling / 2 + random() * (ceiling / 2));
}
