import { createTextractClient } from '../adapters/aws/clients';
import { lazySqsOcrJobQueues } from '../adapters/aws/sqs/lazy-ocr-job-queues';
import { s3FileStore } from '../adapters/aws/s3/file-store';
import { TextractOcrEngine } from '../adapters/aws/textract/ocr-engine';
import type { OcrWorkerServices } from '../domain/ocr/process-ocr-job';
import type { AppContainer } from './app-container';
import { bucketEnvSchema, OCR_STALE_AFTER_SECONDS, ocrQueueUrls, tokenlessContainer } from './aws';
import { parseEnv, tableEnvSchema } from './config';
import { imagingServices } from './imaging';

/*
 * The OCR worker's root, apart from aws-storage.ts and aws-queues.ts so that nothing in its graph imports the SQS
 * client statically: the worker loads it on first use.
 */

/**
 * The OCR worker: Textract reading from the bucket, pdf.js for PDF text layers, the repositories, and the OCR
 * queues (loaded on first use), where a job Textract is throttling goes back with a delay.
 */
export function awsOcrWorkerDependencies(env: NodeJS.ProcessEnv = process.env): AppContainer & OcrWorkerServices {
  const { BUCKET_NAME: bucket } = parseEnv(bucketEnvSchema, env);
  const container = tokenlessContainer(parseEnv(tableEnvSchema, env).TABLE_NAME, env, {
    files: s3FileStore(bucket),
    // The event source feeds the worker; it sends to the queue only to hand a job back.
    ocrQueues: lazySqsOcrJobQueues(ocrQueueUrls(env)),
  });
  const { textLayer, searchablePdf } = imagingServices(env, { prestart: false });
  return {
    ...container,
    // Pages that need OCR beside pages with a text layer go to Textract one by one, as one-page PDFs.
    engine: new TextractOcrEngine({ client: createTextractClient(), bucket, metrics: container.metrics, pagePdf: (bytes, page) => textLayer.pagePdf(bytes, page) }),
    textLayer,
    searchablePdf,
    staleAfterSeconds: OCR_STALE_AFTER_SECONDS,
  };
}
