import { SQSClient } from '@aws-sdk/client-sqs';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** The tracer module as a process with `env` loads it (it decides once, at load). */
async function tracerIn(env: Record<string, string>) {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  vi.resetModules();
  return import('../../../shared/adapters/xray/lambda-tracing');
}

const xrayMiddleware = (client: SQSClient) => client.middlewareStack.identify().filter((name) => /xray/i.test(name));

const LAMBDA = { AWS_LAMBDA_FUNCTION_NAME: 'docservice-documents', AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x', LAMBDA_TASK_ROOT: '/var/task' };

afterEach(() => vi.unstubAllEnvs());

describe('X-Ray tracing of the SDK clients', () => {
  it('leaves a client as it is outside Lambda, without making a tracer', async () => {
    // Arrange
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', undefined as unknown as string);
    const { traced, lambdaTracing } = await tracerIn({});

    // Act
    const client = traced(new SQSClient({ region: 'us-east-1' }));

    // Assert
    expect(lambdaTracing).toBeUndefined();
    expect(xrayMiddleware(client)).toEqual([]);
  });

  it('records the calls of a client in Lambda', async () => {
    // Arrange
    const { traced, lambdaTracing } = await tracerIn(LAMBDA);

    // Act
    const client = traced(new SQSClient({ region: 'us-east-1' }));

    // Assert
    expect(lambdaTracing).toBeDefined();
    expect(xrayMiddleware(client)).not.toEqual([]);
  });

  it('leaves a client as it is in Lambda with POWERTOOLS_TRACE_ENABLED=false', async () => {
    // Arrange
    const { traced, lambdaTracing } = await tracerIn({ ...LAMBDA, POWERTOOLS_TRACE_ENABLED: 'false' });

    // Act
    const client = traced(new SQSClient({ region: 'us-east-1' }));

    // Assert
    expect(lambdaTracing).toBeUndefined();
    expect(xrayMiddleware(client)).toEqual([]);
  });
});
