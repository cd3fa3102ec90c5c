import { SQSClient } from '@aws-sdk/client-sqs';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** The tracing module as a process with `env` loads it (it decides once, at load). */
async function tracingIn(env: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value as string);
  vi.resetModules();
  return import('../../../../shared/adapters/otel/process-tracing');
}

const otelMiddleware = (client: SQSClient) => client.middlewareStack.identify().filter((name) => /^otel/u.test(name));

const LAMBDA = { AWS_LAMBDA_FUNCTION_NAME: 'docservice-documents', AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x', LAMBDA_TASK_ROOT: '/var/task' };

afterEach(() => vi.unstubAllEnvs());

describe('OpenTelemetry tracing of the SDK clients', () => {
  it('leaves a client as it is outside Lambda, without making a tracer', async () => {
    // Arrange
    const { traced, processTracing } = await tracingIn({ AWS_LAMBDA_FUNCTION_NAME: undefined, OTEL_TRACES_EXPORTER: undefined });

    // Act
    const client = traced(new SQSClient({ region: 'us-east-1' }));

    // Assert
    expect(processTracing).toBeUndefined();
    expect(otelMiddleware(client)).toEqual([]);
  });

  it('records the calls of a client in Lambda', async () => {
    // Arrange
    const { traced, processTracing } = await tracingIn(LAMBDA);

    // Act
    const client = traced(new SQSClient({ region: 'us-east-1' }));

    // Assert
    expect(processTracing).toBeDefined();
    expect(otelMiddleware(client)).toEqual(expect.arrayContaining(['otelSpanMiddleware - initialize', 'otelTraceHeaderMiddleware - build']));
  });

  it('records the calls of a client locally when the spans go to the console', async () => {
    // Arrange
    const { traced, processTracing } = await tracingIn({ AWS_LAMBDA_FUNCTION_NAME: undefined, OTEL_TRACES_EXPORTER: 'console' });

    // Act
    const client = traced(new SQSClient({ region: 'us-east-1' }));

    // Assert
    expect(processTracing).toBeDefined();
    expect(otelMiddleware(client)).not.toEqual([]);
  });

  it('leaves a client as it is in Lambda with POWERTOOLS_TRACE_ENABLED=false', async () => {
    // Arrange
    const { traced, processTracing } = await tracingIn({ ...LAMBDA, POWERTOOLS_TRACE_ENABLED: 'false' });

    // Act
    const client = traced(new SQSClient({ region: 'us-east-1' }));

    // Assert
    expect(processTracing).toBeUndefined();
    expect(otelMiddleware(client)).toEqual([]);
  });
});
