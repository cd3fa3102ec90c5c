import { lazyS3FileStore } from '../adapters/aws/s3/lazy-file-store';
import type { AppContainer } from './app-container';
import { bucketEnvSchema, tokenlessContainer } from './aws';
import { ocrQueues } from './kit/aws-queues';
import { sourceParts } from './aws-sources';
import { parseEnv, tableEnvSchema } from './config';

/*
 * The sync worker's part of the cloud composition root, apart from aws-sources.ts so that the sources function's
 * bundle holds no import() of the S3 client (see aws-documents.ts).
 */

/**
 * The sync worker: the repositories, the OCR queues, the source parts and the bucket, loaded by the first file
 * step (a directory step lists and compares without it, and a scheduled sync of an unchanged source is nothing
 * else); no JWT key.
 */
export function awsSourceSyncDependencies(env: NodeJS.ProcessEnv = process.env): AppContainer {
  return tokenlessContainer(parseEnv(tableEnvSchema, env).TABLE_NAME, env, {
    files: lazyS3FileStore(parseEnv(bucketEnvSchema, env).BUCKET_NAME),
    ocrQueues: ocrQueues(env),
    ...sourceParts(env),
  });
}
