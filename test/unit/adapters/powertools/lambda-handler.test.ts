import type { Context } from 'aws-lambda';
import { emfOf, total } from '../../../support/emf';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lambdaEntry } from '../../../../shared/adapters/powertools/lambda-handler';
import { lambdaBusinessMetrics } from '../../../../shared/adapters/powertools/powertools-metrics';

const context = { functionName: 'docservice-documents', awsRequestId: 'lambda-1', invokedFunctionArn: 'arn', memoryLimitInMB: '512' } as unknown as Context;

afterEach(() => vi.restoreAllMocks());

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

describe('Lambda entries', () => {
  it('wrap every function handler in lambdaEntry, so that each invocation publishes what it counted', async () => {
    const { readdir, readFile } = await import('node:fs/promises');
    const functionsDir = new URL('../../../../functions/', import.meta.url);
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
