import type { BusinessMetric, BusinessMetrics } from '../domain/metrics/ports';
import { logger } from './logger';

/**
 * Business metrics of the local runtime: each count is a debug line (`metric: DocumentsIngested value=1`, with
 * the request or message it happened in), seen with LOG_LEVEL=debug and free otherwise. There is no CloudWatch
 * to publish to, and the runtime's state is in its own endpoints (queue status, usage); a line next to the work
 * it counts is what a developer checking a count needs.
 */
export const debugLogBusinessMetrics: BusinessMetrics = {
  count: (metric: BusinessMetric, value = 1) => logger.debug(`metric: ${metric}`, { metric, value }),
};
