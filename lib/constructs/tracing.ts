import { Stack } from 'aws-cdk-lib';
import type { Construct } from 'constructs';

/**
 * The context key (and stage file setting) that picks the OpenTelemetry collector layer of every function: a
 * layer version ARN, or `none` for no layer and no spans of the functions' own (Lambda's segments stay).
 */
export const TRACING_LAYER_CONTEXT = 'tracingCollectorLayerArn';

/**
 * The ADOT collector Lambda layer AWS publishes for arm64 (the functions' architecture) in every region: the
 * OpenTelemetry collector as a Lambda extension, with an OTLP receiver on localhost:4318 and, in its default
 * configuration, X-Ray as the destination (PutTraceSegments, which active tracing grants). A stage may pin
 * another version, or its own build of the collector, with {@link TRACING_LAYER_CONTEXT}.
 */
export const ADOT_COLLECTOR_LAYER = { account: '901920570463', name: 'aws-otel-collector-arm64-ver-0-117-0', version: 1 } as const;

/** The collector layer the functions of `scope`'s stack carry; undefined for `none`. */
export function tracingCollectorLayerArn(scope: Construct): string | undefined {
  const given: unknown = scope.node.tryGetContext(TRACING_LAYER_CONTEXT);
  if (given === 'none') return undefined;
  if (typeof given === 'string' && given !== '') {
    if (!/^arn:aws[a-z-]*:lambda:[a-z0-9-]+:\d{12}:layer:[A-Za-z0-9_-]+:\d+$/u.test(given)) {
      throw new Error(`${TRACING_LAYER_CONTEXT}: a Lambda layer version ARN (arn:aws:lambda:<region>:<account>:layer:<name>:<version>) or none, not ${given}`);
    }
    return given;
  }
  const { account, name, version } = ADOT_COLLECTOR_LAYER;
  // Published in the commercial partition only: a stage elsewhere names its own layer.
  return `arn:aws:lambda:${Stack.of(scope).region}:${account}:layer:${name}:${version}`;
}
