import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lambdaEntry } from '../../../shared/adapters/powertools/lambda-handler';
import { createPowertoolsBusinessMetrics, lambdaBusinessMetrics } from '../../../shared/adapters/powertools/powertools-metrics';
import { BUSINESS_METRICS_NAMESPACE } from '../../../shared/manifest';
import { withLogContext } from '../../../shared/observability/log-context';
import { debugLogBusinessMetrics } from '../../../shared/observability/logged-metrics';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- EMF JSON, read by the assertions
type Emf = any;

/** The JSON lines written to stdout while `work` runs. */
async function emfOf(work: () => unknown): Promise<Emf[]> {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  });
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return lines.map((line) => JSON.parse(line) as Emf);
}

/** The values of `metric` in an EMF blob, however Powertools grouped them. */
const total = (blob: Emf, metric: string): number => [blob[metric]].flat().reduce((sum: number, value: number) => sum + value, 0);

const context = { functionName: 'docservice-documents', awsRequestId: 'lambda-1', invokedFunctionArn: 'arn', memoryLimitInMB: '512' } as unknown as Context;

afterEach(() => vi.restoreAllMocks());

describe('business metrics as CloudWatch embedded metrics', () => {
  it('publishes the counts of an invocation as one EMF line in the namespace, by service only', async () => {
    // Arrange
    const metrics = createPowertoolsBusinessMetrics({ POWERTOOLS_METRICS_NAMESPACE: 'DocServiceTest', POWERTOOLS_SERVICE_NAME: 'docservice-api' });
    metrics.count('DocumentsIngested');
    metrics.count('DocumentsIngested');
    metrics.count('PagesOcred', 3);

    // Act
    const [blob, ...more] = await emfOf(() => metrics.publish());

    // Assert
    expect(more).toEqual([]);
    const [directive] = blob._aws.CloudWatchMetrics;
    expect(directive.Namespace).toBe('DocServiceTest');
    expect(directive.Dimensions).toEqual([['service']]);
    expect(directive.Metrics).toEqual(
      expect.arrayContaining([
        { Name: 'DocumentsIngested', Unit: 'Count' },
        { Name: 'PagesOcred', Unit: 'Count' },
      ]),
    );
    expect(blob.service).toBe('docservice-api');
    expect(total(blob, 'DocumentsIngested')).toBe(2);
    expect(total(blob, 'PagesOcred')).toBe(3);
    expect(typeof blob._aws.Timestamp).toBe('number');
  });

  it('names the default namespace when the environment names none', async () => {
    // Arrange
    const metrics = createPowertoolsBusinessMetrics({});
    metrics.count('OcrFailures');

    // Act
    const [blob] = await emfOf(() => metrics.publish());

    // Assert
    expect(blob._aws.CloudWatchMetrics[0].Namespace).toBe(BUSINESS_METRICS_NAMESPACE);
  });

  it('writes nothing when nothing was counted', async () => {
    // Arrange
    const metrics = createPowertoolsBusinessMetrics({});

    // Act
    const lines = await emfOf(() => metrics.publish());

    // Assert
    expect(lines).toEqual([]);
  });

  it('starts again from nothing after a publish', async () => {
    // Arrange
    const metrics = createPowertoolsBusinessMetrics({});
    metrics.count('TextractThrottles');
    await emfOf(() => metrics.publish());

    // Act
    const lines = await emfOf(() => metrics.publish());

    // Assert
    expect(lines).toEqual([]);
  });

  it('ignores a count that is negative or not a number instead of failing the work', async () => {
    // Arrange
    const metrics = createPowertoolsBusinessMetrics({});

    // Act
    metrics.count('PagesOcred', -1);
    metrics.count('PagesOcred', Number.NaN);
    const lines = await emfOf(() => metrics.publish());

    // Assert
    expect(lines).toEqual([]);
  });
});

describe('the Lambda entry of a function', () => {
  it('publishes what the invocation counted when it ends', async () => {
    // Arrange
    const handler = lambdaEntry(async () => {
      lambdaBusinessMetrics().count('DocumentsIngested');
      return 'done';
    });

    // Act
    let result: unknown;
    const [blob] = await emfOf(async () => (result = await handler({}, context)));

    // Assert
    expect(result).toBe('done');
    expect(total(blob, 'DocumentsIngested')).toBe(1);
  });

  it('publishes what the invocation counted when its handler throws, and throws on', async () => {
    // Arrange
    const handler = lambdaEntry(async () => {
      lambdaBusinessMetrics().count('OcrFailures');
      throw new Error('worker died');
    });

    // Act
    let failure: unknown;
    const [blob] = await emfOf(() => handler({}, context).catch((error: unknown) => (failure = error)));

    // Assert
    expect(failure).toEqual(new Error('worker died'));
    expect(total(blob, 'OcrFailures')).toBe(1);
  });
});

describe('business metrics of the local runtime', () => {
  it('counts into a debug line with the context it was counted in', async () => {
    // Arrange
    vi.stubEnv('LOG_LEVEL', 'debug');
    vi.stubEnv('LOG_FORMAT', 'json');
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));

    // Act
    withLogContext({ request_id: 'req-9' }, () => debugLogBusinessMetrics.count('DocumentsIngested'));

    // Assert
    vi.unstubAllEnvs();
    expect(lines.map((line) => JSON.parse(line))).toContainEqual(expect.objectContaining({ level: 'debug', metric: 'DocumentsIngested', value: 1, request_id: 'req-9' }));
  });
});

describe('Lambda entries', () => {
  it('wrap every function handler in lambdaEntry, so that each invocation publishes what it counted', async () => {
    const { readdir, readFile } = await import('node:fs/promises');
    const functionsDir = new URL('../../../functions/', import.meta.url);
    const groups = (await readdir(functionsDir, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);

    const unwrapped: string[] = [];
    for (const group of groups) {
      // A folder without index.ts holds a handler not deployed as a function (yet).
      const source = await readFile(new URL(`${group}/index.ts`, functionsDir), 'utf8').catch(() => null);
      if (source !== null && !/export const handler = lambdaEntry\(/.test(source)) unwrapped.push(group);
    }

    expect(groups.length).toBeGreaterThan(10);
    expect(unwrapped).toEqual([]);
  });
});
