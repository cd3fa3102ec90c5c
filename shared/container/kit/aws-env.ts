import * as z from '../../zod';
import type { OcrPriority } from '../../domain/ocr/jobs';
import { TEXTRACT_LANGUAGES } from '../../adapters/aws/textract/languages';
import { envText, parseEnv, tableEnvSchema } from './config';
import type { Table } from './table';

/*
 * The cloud functions' variables, each parsed once at init (a bad one fails the cold start naming it). Apart from
 * the builders that use them, so that a function that loads a client on first use can read its variables at init.
 */

/** TABLE_NAME, with a table client made by `db` (the caller's: each runtime makes its own). */
export const tableOf = (env: NodeJS.ProcessEnv, db: Table['db']): Table => ({ db, name: parseEnv(tableEnvSchema, env).TABLE_NAME });

const ocrQueuesEnvSchema = z.lazy(() => z.object({ OCR_QUEUE_URL: z.url(), OCR_HIGH_QUEUE_URL: z.url() }));

/** The OCR queues' URLs (OCR_QUEUE_URL, OCR_HIGH_QUEUE_URL). */
export const ocrQueueUrls = (env: NodeJS.ProcessEnv): Record<OcrPriority, string> => {
  const config = parseEnv(ocrQueuesEnvSchema, env);
  return { normal: config.OCR_QUEUE_URL, high: config.OCR_HIGH_QUEUE_URL };
};

/** BUCKET_NAME. */
export const bucketEnvSchema = z.lazy(() => z.object({ BUCKET_NAME: envText }));

const auditEnvSchema = z.lazy(() => z.object({ AUDIT_TABLE_NAME: envText }));

/** The audit table (AUDIT_TABLE_NAME), for the functions that read or append to the log. */
export const auditTableName = (env: NodeJS.ProcessEnv): string => parseEnv(auditEnvSchema, env).AUDIT_TABLE_NAME;

const optionalAuditEnvSchema = z.lazy(() => z.object({ AUDIT_TABLE_NAME: z.optional(envText) }));

/** The audit table where the stack gives the function one (auth records logins there). */
export const optionalAuditTableName = (env: NodeJS.ProcessEnv): string | undefined => parseEnv(optionalAuditEnvSchema, env).AUDIT_TABLE_NAME;

/** Textract's languages: the HTTP functions check requests against them without loading the engine. */
export const textractLanguages = async () => TEXTRACT_LANGUAGES;

/** A processing job whose heartbeat is older than the worker's timeout plus a minute lost its worker. */
export const OCR_STALE_AFTER_SECONDS = 16 * 60;

const ocrWorkersEnvSchema = z.lazy(() => z.object({ OCR_WORKERS: z._default(z.coerce.number().check(z.int(), z.gte(1)), 1) }));

/** OCR jobs that run side by side (OCR_WORKERS), for the queue's completion estimate. */
export const ocrWorkers = (env: NodeJS.ProcessEnv): number => parseEnv(ocrWorkersEnvSchema, env).OCR_WORKERS;

const webhookDeliveryEnvSchema = z.lazy(() => z.object({ WEBHOOK_DELIVERY_QUEUE_URL: z.url() }));

/** The webhook delivery queue's URL (WEBHOOK_DELIVERY_QUEUE_URL). */
export const webhookDeliveryQueueUrl = (env: NodeJS.ProcessEnv): string => parseEnv(webhookDeliveryEnvSchema, env).WEBHOOK_DELIVERY_QUEUE_URL;

const portabilityEnvSchema = z.lazy(() => z.object({ PORTABILITY_QUEUE_URL: z.url() }));

/** The portability queue's URL (PORTABILITY_QUEUE_URL). */
export const portabilityQueueUrl = (env: NodeJS.ProcessEnv): string => parseEnv(portabilityEnvSchema, env).PORTABILITY_QUEUE_URL;

/** BUCKET_NAME, parsed. */
export const bucketName = (env: NodeJS.ProcessEnv): string => parseEnv(bucketEnvSchema, env).BUCKET_NAME;
