/** What one local deployment holds: its resources on the emulators and its private directories under DATA_DIR. */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ERASER_TIMEOUT_SECONDS, PORTABILITY_TIMEOUT_SECONDS, RULE_JOBS_TIMEOUT_SECONDS, SOURCE_SYNC_TIMEOUT_SECONDS } from '../manifest';
import { createDynamoDocumentClient } from '../adapters/aws/clients';
import { createSqsClient } from '../adapters/aws/sqs/client';
import { createS3Client } from '../adapters/aws/s3/client';
import { ensureBucket, ensureQueueWithDlq, ensureTable } from '../adapters/aws/provisioning';
import { localClientOptions, type LocalCredentials, type LocalResources } from './local-clients';
import { fileSecret } from './secrets';

/** Fixed resource names: one local deployment per DATA_DIR. */
export const RESOURCE_NAMES = {
  table: 'docservice',
  bucket: 'docservice-documents',
  ocrQueue: 'docservice-ocr',
  ocrHighQueue: 'docservice-ocr-high',
  ingestQueue: 'docservice-ingest',
  sourceSyncQueue: 'docservice-source-sync',
  webhookDeliveryQueue: 'docservice-webhook-deliveries',
  ruleJobsQueue: 'docservice-rule-jobs',
  portabilityQueue: 'docservice-portability',
  erasureQueue: 'docservice-erasures',
  auditTable: 'docservice-audit',
};

/** Six times the worker's timeout, as in the cloud stack. */
const OCR_VISIBILITY_TIMEOUT_SECONDS = 720;
const INGEST_VISIBILITY_TIMEOUT_SECONDS = 300;
/** Several times an attempt's 10 s deadline, as in the cloud stack. */
const WEBHOOK_DELIVERY_VISIBILITY_TIMEOUT_SECONDS = 60;

/** Creates what is missing of the deployment's table, bucket and queues on the emulators. */
export async function provision(endpoints: LocalResources['endpoints'], dynamodbCredentials: LocalCredentials): Promise<LocalResources> {
  const dynamodb = createDynamoDocumentClient(localClientOptions(endpoints.dynamodb, dynamodbCredentials));
  await ensureTable(dynamodb, RESOURCE_NAMES.table, { stream: true });
  // The audit log's own table, as in the cloud (no stream: nothing follows it).
  await ensureTable(dynamodb, RESOURCE_NAMES.auditTable);
  await ensureBucket(createS3Client(localClientOptions(endpoints.s3)), RESOURCE_NAMES.bucket);
  const sqs = createSqsClient(localClientOptions(endpoints.sqs));
  const [ocr, ocrHigh, ingest, sourceSync, webhookDelivery, ruleJobs, portability, erasures] = await Promise.all([
    ensureQueueWithDlq(sqs, RESOURCE_NAMES.ocrQueue, { visibilityTimeoutSeconds: OCR_VISIBILITY_TIMEOUT_SECONDS }),
    ensureQueueWithDlq(sqs, RESOURCE_NAMES.ocrHighQueue, { visibilityTimeoutSeconds: OCR_VISIBILITY_TIMEOUT_SECONDS }),
    ensureQueueWithDlq(sqs, RESOURCE_NAMES.ingestQueue, { visibilityTimeoutSeconds: INGEST_VISIBILITY_TIMEOUT_SECONDS }),
    ensureQueueWithDlq(sqs, RESOURCE_NAMES.sourceSyncQueue, { visibilityTimeoutSeconds: SOURCE_SYNC_TIMEOUT_SECONDS }),
    ensureQueueWithDlq(sqs, RESOURCE_NAMES.webhookDeliveryQueue, { visibilityTimeoutSeconds: WEBHOOK_DELIVERY_VISIBILITY_TIMEOUT_SECONDS }),
    ensureQueueWithDlq(sqs, RESOURCE_NAMES.ruleJobsQueue, { visibilityTimeoutSeconds: RULE_JOBS_TIMEOUT_SECONDS * 6 }),
    ensureQueueWithDlq(sqs, RESOURCE_NAMES.portabilityQueue, { visibilityTimeoutSeconds: PORTABILITY_TIMEOUT_SECONDS }),
    ensureQueueWithDlq(sqs, RESOURCE_NAMES.erasureQueue, { visibilityTimeoutSeconds: ERASER_TIMEOUT_SECONDS * 6 }),
  ]);
  return {
    endpoints,
    dynamodbCredentials,
    tableName: RESOURCE_NAMES.table,
    bucketName: RESOURCE_NAMES.bucket,
    ocrQueueUrl: ocr.queueUrl,
    ocrHighQueueUrl: ocrHigh.queueUrl,
    ingestQueueUrl: ingest.queueUrl,
    sourceSyncQueueUrl: sourceSync.queueUrl,
    webhookDeliveryQueueUrl: webhookDelivery.queueUrl,
    ruleJobsQueueUrl: ruleJobs.queueUrl,
    portabilityQueueUrl: portability.queueUrl,
    erasureQueueUrl: erasures.queueUrl,
    auditTableName: RESOURCE_NAMES.auditTable,
  };
}

/** What DATA_DIR holds; each part is readable by the runtime's OS user only. */
const DATA_DIR_PARTS = ['dynamodb', 's3', 'search', 'secrets', 'streams'];

/**
 * DATA_DIR's folder for the working files of one run (the OCR engine's page images): a run that was killed
 * leaves its files there rather than in the shared temp folder, and the next start removes them.
 */
export const scratchDirOf = (dataDir: string): string => join(dataDir, 'scratch');

/** Makes DATA_DIR's parts, private to the runtime's OS user, and an empty scratch folder ({@link scratchDirOf}). */
export async function prepareDataDir(dataDir: string): Promise<void> {
  for (const part of DATA_DIR_PARTS) await privateDirectory(join(dataDir, part));
  await rm(scratchDirOf(dataDir), { recursive: true, force: true });
  await privateDirectory(scratchDirOf(dataDir));
}

async function privateDirectory(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: 0o700 });
  // mkdir leaves the mode of a directory that exists alone: one made by an earlier version is tightened here.
  await chmod(path, 0o700);
}

/**
 * The credentials of the runtime's private DynamoDB Local database. DynamoDB Local accepts any secret key, so
 * the access key id, random and kept under DATA_DIR/secrets (0600), is what keeps other clients out; it may
 * hold letters and digits only.
 */
export async function dynamoDbCredentials(dataDir: string): Promise<LocalCredentials> {
  const { value } = await fileSecret(join(dataDir, 'secrets', 'dynamodb-access-key-id'), () => randomBytes(20).toString('hex'));
  return { accessKeyId: value, secretAccessKey: 'unused-by-dynamodb-local' };
}
