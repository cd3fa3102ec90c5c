import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { BusinessMetric, BusinessMetrics } from '../../domain/metrics/ports';
import { BUSINESS_METRICS_NAMESPACE } from '../../manifest';
import { logger } from '../../observability/logger';
import { serviceName } from './powertools-logger';

/**
 * Business metrics as CloudWatch embedded metrics (EMF): counts add up in the process and go out as one JSON
 * log line when the invocation ends ({@link PowertoolsBusinessMetrics.publish}, called by the handler wrapper),
 * which CloudWatch turns into metrics without an API call. The only dimension is the service (one per stack):
 * a dimension per workspace would make a metric per workspace, and CloudWatch bills by metric.
 */
export class PowertoolsBusinessMetrics implements BusinessMetrics {
  constructor(private readonly metrics: Metrics) {}

  count(metric: BusinessMetric, value = 1): void {
    if (!Number.isFinite(value) || value < 0) return;
    try {
      this.metrics.addMetric(metric, MetricUnit.Count, Math.round(value));
    } catch (error) {
      // Counting must not fail the work it counts.
      logger.warn('metrics: count dropped', { metric, error });
    }
  }

  /** Writes what was counted since the last publish as one EMF line, and starts again from nothing. */
  publish(): void {
    if (!this.metrics.hasStoredMetrics()) return;
    try {
      this.metrics.publishStoredMetrics();
    } catch (error) {
      logger.warn('metrics: publish failed', { error });
    }
  }
}

/** The adapter for a process's environment: namespace POWERTOOLS_METRICS_NAMESPACE, service POWERTOOLS_SERVICE_NAME. */
export function createPowertoolsBusinessMetrics(env: NodeJS.ProcessEnv = process.env): PowertoolsBusinessMetrics {
  return new PowertoolsBusinessMetrics(
    new Metrics({ namespace: env['POWERTOOLS_METRICS_NAMESPACE'] || BUSINESS_METRICS_NAMESPACE, serviceName: serviceName(env) }),
  );
}

let instance: PowertoolsBusinessMetrics | undefined;

/** The process's one business metrics adapter (the composition root hands it out, the handler wrapper publishes it). */
export const lambdaBusinessMetrics = (): PowertoolsBusinessMetrics => (instance ??= createPowertoolsBusinessMetrics());

/** Publishes what this invocation counted, if the process counts anything. */
export const publishLambdaBusinessMetrics = (): void => instance?.publish();
