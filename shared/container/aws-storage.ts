import * as z from '../zod';
import { createDynamoDocumentClient } from '../adapters/aws/clients';
import { createSqsClient } from '../adapters/aws/sqs/client';
import { createS3Client } from '../adapters/aws/s3/client';
import { s3FileStore } from '../adapters/aws/s3/file-store';
import { bucketProbe } from '../adapters/aws/s3/bucket-probe';
import { queueProbe } from '../adapters/aws/sqs/queue-probe';
import { tableProbe } from '../adapters/aws/dynamodb/table-probe';
import type { HealthProbe } from '../domain/health/ports';
import type { AppContainer } from './app-container';
import { bucketEnvSchema, tokenlessContainer, type StorageParts } from './aws';
import { ocrQueues } from './kit/aws-queues';
import { commonEnvSchema, envText, parseEnv, tableEnvSchema } from './config';

/**
 * The cloud composition root of the functions that reach the bucket at every invocation (ingest, health; the OCR
 * worker's, aws-ocr-worker.ts, builds its store the same way). It is apart from aws.ts so that the documents
 * function and the source sync, which load the S3 client on first use (`lazyS3FileStore`), can: a module that
 * anything in a function's graph imports statically stays part of its cold start.
 */

/** The bucket (BUCKET_NAME) and the OCR queues (OCR_QUEUE_URL, OCR_HIGH_QUEUE_URL). */
export function awsStorageParts(env: NodeJS.ProcessEnv): Required<StorageParts> {
  return { files: s3FileStore(parseEnv(bucketEnvSchema, env).BUCKET_NAME), ocrQueues: ocrQueues(env) };
}

/** What the ingest of presigned uploads needs: the repositories, the bucket and the OCR queue; no JWT key. */
export function awsIngestDependencies(env: NodeJS.ProcessEnv = process.env): AppContainer {
  return tokenlessContainer(parseEnv(tableEnvSchema, env).TABLE_NAME, env, awsStorageParts(env));
}

const healthEnvSchema = z.lazy(() =>
  z.object({
    TABLE_NAME: envText,
    BUCKET_NAME: envText,
    OCR_QUEUE_URL: z.url(),
    CORS_ORIGINS: commonEnvSchema.shape.CORS_ORIGINS,
  }),
);

/** The probes of the health endpoint: the table, the bucket and the OCR queue. */
export function awsHealthDependencies(env: NodeJS.ProcessEnv = process.env): {
  healthProbes: HealthProbe[];
  corsOrigins: AppContainer['corsOrigins'];
} {
  const config = parseEnv(healthEnvSchema, env);
  return {
    healthProbes: [
      tableProbe(createDynamoDocumentClient(), config.TABLE_NAME),
      bucketProbe(createS3Client(), config.BUCKET_NAME),
      queueProbe(createSqsClient(), config.OCR_QUEUE_URL),
    ],
    corsOrigins: config.CORS_ORIGINS,
  };
}
