import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal, type RunningEmulator } from '../../shared/local/emulators/dynamodb-local';
import { startS3Emulator } from '../../shared/local/emulators/s3-emulator';
import { startSqsEmulator } from '../../shared/local/emulators/sqs-emulator';

const started: RunningEmulator[] = [];
let s3Directory: string | undefined;

/**
 * The integration suite talks to real engines: LocalStack when AWS_ENDPOINT_URL points at one, otherwise
 * DynamoDB Local (in memory) and the S3 and SQS emulators, started once for the whole suite.
 */
export async function setup(project: TestProject): Promise<void> {
  const shared = process.env['AWS_ENDPOINT_URL'];
  if (shared) {
    project.provide('awsEndpoints', { dynamodb: shared, s3: shared, sqs: shared });
    return;
  }
  s3Directory = await mkdtemp(join(tmpdir(), 'docservice-s3-'));
  const [dynamodb, s3, sqs] = await Promise.all([
    startDynamoDbLocal(),
    startS3Emulator({ directory: s3Directory }),
    startSqsEmulator(),
  ]);
  started.push(dynamodb, s3, sqs);
  project.provide('awsEndpoints', { dynamodb: dynamodb.endpoint, s3: s3.endpoint, sqs: sqs.endpoint });
}

export async function teardown(): Promise<void> {
  await Promise.allSettled(started.map((emulator) => emulator.stop()));
  if (s3Directory) await rm(s3Directory, { recursive: true, force: true });
}
