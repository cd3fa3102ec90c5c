import * as z from '../../zod';
import { createSqsClient } from '../../adapters/aws/sqs/client';
import { SqsOcrJobQueue } from '../../adapters/aws/sqs/ocr-job-queue';
import { SqsSyncQueue } from '../../adapters/aws/sqs/sync-queue';
import { SqsRuleJobQueue } from '../../adapters/aws/sqs/rule-job-queue';
import { SqsErasureQueue } from '../../adapters/aws/sqs/erasure-queue';
import { SqsWebhookDeliveryQueue } from '../../adapters/aws/sqs/webhook-delivery-queue';
import { SqsPortabilityQueue } from '../../adapters/aws/sqs/portability-queue';
import { ocrQueueUrls, portabilityQueueUrl, webhookDeliveryQueueUrl } from './aws-env';
import { parseEnv } from './config';

/*
 * The cloud's queues over one SQS client. The OCR worker loads the client on first use instead
 * (`lazySqsOcrJobQueues`): a module that anything in a function's graph imports statically stays part of its cold start.
 */

let client: ReturnType<typeof createSqsClient> | undefined;
/** One SQS client per process: the source sync sends to both queues, and each client built is work at its init. */
const sqs = () => (client ??= createSqsClient());

/** The OCR queues (OCR_QUEUE_URL, OCR_HIGH_QUEUE_URL). */
export const ocrQueues = (env: NodeJS.ProcessEnv) => new SqsOcrJobQueue(sqs(), ocrQueueUrls(env));

const syncQueueEnvSchema = z.lazy(() => z.object({ SOURCE_SYNC_QUEUE_URL: z.url() }));

/** The sync queue (SOURCE_SYNC_QUEUE_URL). */
export const awsSyncQueue = (env: NodeJS.ProcessEnv) => new SqsSyncQueue(sqs(), parseEnv(syncQueueEnvSchema, env).SOURCE_SYNC_QUEUE_URL);

const ruleJobsEnvSchema = z.lazy(() => z.object({ RULE_JOBS_QUEUE_URL: z.url() }));

/** The rule-jobs queue (RULE_JOBS_QUEUE_URL). */
export const awsRuleJobQueue = (env: NodeJS.ProcessEnv) => new SqsRuleJobQueue(sqs(), parseEnv(ruleJobsEnvSchema, env).RULE_JOBS_QUEUE_URL);

const erasureEnvSchema = z.lazy(() => z.object({ ERASURE_QUEUE_URL: z.url() }));

/** The erasure queue (ERASURE_QUEUE_URL): the workspaces function queues the erasures it accepts. */
export const awsErasureQueue = (env: NodeJS.ProcessEnv) => new SqsErasureQueue(sqs(), parseEnv(erasureEnvSchema, env).ERASURE_QUEUE_URL);

/** The webhook delivery queue (WEBHOOK_DELIVERY_QUEUE_URL). */
export const awsWebhookDeliveryQueue = (env: NodeJS.ProcessEnv) => new SqsWebhookDeliveryQueue(sqs(), webhookDeliveryQueueUrl(env));

/** The queue of exports and imports (PORTABILITY_QUEUE_URL). */
export const awsPortabilityQueue = (env: NodeJS.ProcessEnv) => new SqsPortabilityQueue(sqs(), portabilityQueueUrl(env));
