import type { SQSRecord } from 'aws-lambda';

/**
 * Gives a received message back to its queue after a delay (SQS ChangeMessageVisibility). A Lambda event source
 * leaves a failed message invisible for the rest of the queue's visibility timeout, which is sized for the
 * slowest job (90 minutes for OCR); a failure that only needs a short pause sets its own.
 */
export interface MessageRedelivery {
  redeliverAfter(record: SQSRecord, seconds: number): Promise<void>;
}

/** The first pause after a throttled delivery, and the longest (SQS's own limit is 12 hours). */
export const THROTTLED_RETRY_BASE_SECONDS = 60;
export const THROTTLED_RETRY_MAX_SECONDS = 900;

/**
 * How long a message whose work was throttled waits before its next delivery: doubling with each receive
 * (60, 120, 240, ... seconds, at most 15 minutes), with the lower half jittered so that the messages throttled
 * together do not return together.
 */
export function throttledRetryDelaySeconds(receiveCount: number, random: () => number = Math.random): number {
  const attempt = Math.max(1, Math.floor(receiveCount) || 1);
  const ceiling = Math.min(THROTTLED_RETRY_MAX_SECONDS, THROTTLED_RETRY_BASE_SECONDS * 2 ** (attempt - 1));
  return Math.ceil(ceiling / 2 + random() * (ceiling / 2));
}
