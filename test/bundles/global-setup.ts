import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { createDynamoDocumentClient } from '../../shared/adapters/aws/clients';
import { createSqsClient } from '../../shared/adapters/aws/sqs/client';
import { createS3Client } from '../../shared/adapters/aws/s3/client';
import { ensureBucket, ensureTable } from '../../shared/adapters/aws/provisioning';
import { jsonMessageSender } from '../../shared/adapters/aws/sqs/send';
import { localClientOptions } from '../../shared/local/local-clients';
import { startDynamoDbLocal, type RunningEmulator } from '../../shared/local/emulators/dynamodb-local';
import { freePort } from '../../shared/local/emulators/ports';
import { startS3Emulator } from '../../shared/local/emulators/s3-emulator';
import { startSqsEmulator } from '../../shared/local/emulators/sqs-emulator';
import { S3EventForwarder } from '../../shared/local/s3-event-forwarder';
import { runnableHere } from './support/native';
import { deployedFunctions, provisionQueues, type BundledFunctions, type Template } from './support/template';

const ROOT = resolve(import.meta.dirname, '../..');
const started: RunningEmulator[] = [];
const removeAfter: string[] = [];

/**
 * The bundle suite's world: `cdk synth` once, into a directory outside the repository (so that a bundle that
 * needs a file it does not carry cannot find it in the repository's node_modules), and the emulators with the
 * stateful stack's table, bucket and queues, as its template describes them. `BUNDLES_CDK_OUT=<dir>` reuses an
 * earlier synth (also outside the repository) instead of running one.
 */
export async function setup(project: TestProject): Promise<void> {
  const [cdkOut, emulators] = await Promise.all([synthesize(), startEmulators()]);
  const [stateful, api] = await Promise.all(
    ['DocService-Stateful', 'DocService-Api'].map(async (stack) => JSON.parse(await readFile(join(cdkOut, `${stack}.template.json`), 'utf8')) as Template),
  );

  const sqs = createSqsClient(localClientOptions(emulators.sqs));
  const tableName = `docservice-${randomBytes(4).toString('hex')}`;
  const bucketName = `docservice-documents-${randomBytes(4).toString('hex')}`;
  const [queues] = await Promise.all([
    provisionQueues(sqs, stateful!),
    // With the stream of new and old images the stateful stack gives the table (read by the stream consumers).
    ensureTable(createDynamoDocumentClient(localClientOptions(emulators.dynamodb)), tableName, { stream: true }),
    ensureBucket(createS3Client(localClientOptions(emulators.s3)), bucketName),
  ]);
  const local = {
    endpoints: { dynamodb: emulators.dynamodb, s3: emulators.s3, sqs: emulators.sqs },
    tableName,
    bucketName,
    queues,
    jwtSecret: randomBytes(48).toString('base64url'),
    edgeOriginToken: randomBytes(36).toString('base64url'),
    // Nothing listens on these: a call is refused at once, as from a function whose domain or stage is down.
    unreachable: `127.0.0.1:${await freePort()}`,
  };
  const functions: BundledFunctions = deployedFunctions(cdkOut, api!, stateful!, local);
  for (const fn of Object.values(functions.byName)) {
    fn.runnableAsset = runnableHere(fn.asset, fn.architecture, join(ROOT, 'node_modules'), removeAfter);
  }
  // The bucket's notification (object created under its prefix) goes to the queue the stack names.
  emulators.s3Events.connect(jsonMessageSender(sqs, queues[functions.bucketNotificationQueue]!.url));

  project.provide('bundles', { cdkOut, ...local, functions });
}

export async function teardown(): Promise<void> {
  await Promise.allSettled(started.map((emulator) => emulator.stop()));
  await Promise.allSettled(removeAfter.map((path) => rm(path, { recursive: true, force: true })));
}

async function synthesize(): Promise<string> {
  const given = process.env['BUNDLES_CDK_OUT'];
  if (given) {
    const out = resolve(given);
    if (!relative(ROOT, out).startsWith('..')) throw new Error('BUNDLES_CDK_OUT must lie outside the repository');
    if (!existsSync(join(out, 'DocService-Api.template.json'))) throw new Error(`BUNDLES_CDK_OUT: no synth in ${out}`);
    return out;
  }
  const out = await mkdtemp(join(tmpdir(), 'bundles-cdk-out-'));
  removeAfter.push(out);
  await promisify(execFile)('npx', ['cdk', 'synth', '--quiet', '--output', out], {
    cwd: ROOT,
    env: { ...process.env, CDK_DISABLE_VERSION_CHECK: 'true' },
    maxBuffer: 64 * 1024 * 1024,
  });
  return out;
}

async function startEmulators() {
  const s3Directory = await mkdtemp(join(tmpdir(), 'bundles-s3-'));
  removeAfter.push(s3Directory);
  const s3Events = new S3EventForwarder();
  const [dynamodb, s3, sqs] = await Promise.all([
    startDynamoDbLocal(),
    startS3Emulator({ directory: s3Directory, onEvent: (event) => s3Events.forward(event) }),
    startSqsEmulator(),
  ]);
  started.push(dynamodb, s3, sqs);
  return { dynamodb: dynamodb.endpoint, s3: s3.endpoint, sqs: sqs.endpoint, s3Events };
}

declare module 'vitest' {
  export interface ProvidedContext {
    bundles: {
      cdkOut: string;
      endpoints: { dynamodb: string; s3: string; sqs: string };
      tableName: string;
      bucketName: string;
      queues: Record<string, { url: string; arn: string }>;
      jwtSecret: string;
      edgeOriginToken: string;
      unreachable: string;
      functions: BundledFunctions;
    };
  }
}
