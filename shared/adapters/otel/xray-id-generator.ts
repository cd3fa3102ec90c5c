import { randomBytes } from 'node:crypto';
import type { IdGenerator } from '@opentelemetry/sdk-trace';

/**
 * Trace ids X-Ray accepts: the first 8 hex digits are the trace's start in epoch seconds (X-Ray refuses a trace
 * id whose time is more than 30 days off), the other 24 random. Span ids are OpenTelemetry's: 16 random hex
 * digits. The same scheme as @opentelemetry/id-generator-aws-xray, whose release line still depends on the 2.x
 * SDK (and an older API), which a bundle would then carry twice.
 */
export const xrayIdGenerator: IdGenerator = {
  generateTraceId: () => Math.floor(Date.now() / 1000).toString(16).padStart(8, '0') + randomBytes(12).toString('hex'),
  generateSpanId: () => randomBytes(8).toString('hex'),
};
