import * as z from '../zod';
import type { OcrSweeperDeps } from '../domain/ocr/requeue-stuck-jobs';
import type { AppContainer, OcrServices } from './app-container';
import { awsAppContainer, OCR_STALE_AFTER_SECONDS, textractLanguages, tokenlessContainer } from './aws';
import { ocrQueues } from './kit/aws-queues';
import { parseEnv, tableEnvSchema } from './config';

/* The roots of the OCR queue's endpoints and of its sweep; the worker's is aws-ocr-worker.ts. */

const ocrEnvSchema = z.lazy(() => z.object({ OCR_WORKERS: z._default(z.coerce.number().check(z.int(), z.gte(1)), 1) }));

/** The OCR queue endpoints: the app container, both OCR queues, Textract's languages and the worker count. */
export function awsOcrContainer(env: NodeJS.ProcessEnv = process.env): AppContainer & OcrServices {
  const config = parseEnv(ocrEnvSchema, env);
  return { ...awsAppContainer(env, { ocrQueues: ocrQueues(env) }), ocrLanguages: textractLanguages, ocrWorkers: config.OCR_WORKERS };
}

/** The scheduled sweep of stuck OCR jobs. */
export function awsOcrSweeperDependencies(env: NodeJS.ProcessEnv = process.env): OcrSweeperDeps {
  return {
    ...tokenlessContainer(parseEnv(tableEnvSchema, env).TABLE_NAME, env, { ocrQueues: ocrQueues(env) }),
    queuedForSeconds: 30 * 60,
    silentForSeconds: OCR_STALE_AFTER_SECONDS,
  };
}
