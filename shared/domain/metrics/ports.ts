import type { BUSINESS_METRICS } from '../../manifest';

/**
 * The business events an operator watches (embedded metrics in the cloud): how much work came in, how much OCR
 * was done, and how much failed or was slowed by the OCR service.
 */
export type BusinessMetric = (typeof BUSINESS_METRICS)[number];

/**
 * Counts business events for the current invocation; the runtime publishes them (CloudWatch embedded metrics
 * in Lambda). Counting never throws and never waits: a metric must not fail the work it describes.
 */
export interface BusinessMetrics {
  /** Adds `value` (default 1, a whole number >= 0) to `metric`. */
  count(metric: BusinessMetric, value?: number): void;
}

/** Counts nothing: where no one reads the metrics (unit tests, tools). */
export const noBusinessMetrics: BusinessMetrics = { count: () => undefined };
