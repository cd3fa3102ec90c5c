import * as z from '../zod';
import { createDynamoDocumentClient, createSqsClient, createTextractClient } from '../adapters/aws/clients';
import { createS3Client } from '../adapters/aws/s3-client';
import { S3FileStore } from '../adapters/aws/s3-file-store';
import { bucketProbe } from '../adapters/aws/bucket-probe';
import { queueProbe, tableProbe } from '../adapters/aws/health-probes';
import { TextractOcrEngine } from '../adapters/aws/textract-ocr-engine';
import type { HealthProbe } from '../domain/health/ports';
import type { OcrWorkerServices } from '../domain/ocr/process-ocr-job';
import type { AppContainer } from './app-container';
import { bucketEnvSchema, OCR_STALE_AFTER_SECONDS, ocrQueues, tokenlessContainer, type StorageParts } from './aws';
import { commonEnvSchema, envText, parseEnv, tableEnvSchema } from './config';
import { imagingServices } from './imaging';

/**
 * The cloud composition root of the functions that reach the bucket at every invocation (ingest, the OCR worker,
 * the source sync, health). It alone imports the S3 client statically: the documents function, whose listings
 * and metadata never touch the bucket, loads it on first use (`lazyS3FileStore`), which it could not if its
 * root (aws.ts) imported it. A module that is also imported statically stays part of every cold start.
 */

/** The bucket (BUCKET_NAME) and the OCR queues (OCR_QUEUE_URL, OCR_HIGH_QUEUE_URL). */
export function awsStorageParts(env: NodeJS.ProcessEnv): Required<StorageParts> {
  return { files: new S3FileStore(createS3Client(), parseEnv(bucketEnvSchema, env).BUCKET_NAME), ocrQueues: ocrQueues(env) };
}

/** What the ingest of presigned uploads needs: the repositories, the bucket and the OCR queue; no JWT key. */
export function awsIngestDependencies(env: NodeJS.ProcessEnv = process.env): AppContainer {
  return tokenlessContainer(parseEnv(tableEnvSchema, env).TABLE_NAME, env, awsStorageParts(env));
}

/**
 * The OCR worker: Textract reading from the bucket, pdf.js for PDF text layers, the repositories, and the OCR
 * queues, where a job Textract is throttling goes back with a delay.
 */
export function awsOcrWorkerDependencies(env: NodeJS.ProcessEnv = process.env): AppContainer & OcrWorkerServices {
  const container = tokenlessContainer(parseEnv(tableEnvSchema, env).TABLE_NAME, env, awsStorageParts(env));
  const { BUCKET_NAME: bucket } = parseEnv(bucketEnvSchema, env);
  return {
    ...container,
    engine: new TextractOcrEngine({ client: createTextractClient(), bucket, metrics: container.metrics }),
    textLayer: imagingServices(env, { prestart: false }).textLayer,
    staleAfterSeconds: OCR_STALE_AFTER_SECONDS,
  };
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
