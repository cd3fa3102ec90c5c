import * as z from '../zod';
import { createDynamoDocumentClient } from '../adapters/aws/clients';
import { createS3Client } from '../adapters/aws/s3/client';
import { s3FileStore } from '../adapters/aws/s3/file-store';
import { createSqsClient } from '../adapters/aws/sqs/client';
import { SqsPortabilityQueue } from '../adapters/aws/sqs/portability-queue';
import type { AppContainer } from './app-container';
import { awsAppContainer, awsCredentialVault, bucketEnvSchema, tokenlessContainer } from './aws';
import { parseEnv, tableEnvSchema } from './config';
import { dynamoPortabilityServices, type PortabilityServices } from './portability-services';
import { dynamoWebhookStores, type WebhookServices } from './webhook-services';
import { dynamoSourceStores } from './source-stores';
import { auditTableNameOf } from './aws-audit';

/*
 * Exports and imports in the cloud composition root: the `portability` HTTP function (jobs, presigned links,
 * the queue) and the `portability-worker` (the archive's reads and writes, every store of the workspace).
 */

const portabilityEnvSchema = z.lazy(() => z.object({ PORTABILITY_QUEUE_URL: z.url() }));

function portabilityServices(env: NodeJS.ProcessEnv): PortabilityServices {
  const { TABLE_NAME } = parseEnv(tableEnvSchema, env);
  const { BUCKET_NAME } = parseEnv(bucketEnvSchema, env);
  const queue = new SqsPortabilityQueue(createSqsClient(), parseEnv(portabilityEnvSchema, env).PORTABILITY_QUEUE_URL);
  return { portability: dynamoPortabilityServices(createDynamoDocumentClient(), TABLE_NAME, createS3Client(), BUCKET_NAME, queue) };
}

/** The export and import endpoints (TABLE_NAME, BUCKET_NAME, PORTABILITY_QUEUE_URL and the app's). */
export function awsPortabilityContainer(env: NodeJS.ProcessEnv = process.env): AppContainer & PortabilityServices {
  // The sources' stores: an import goes only into a workspace without sources.
  return { ...awsAppContainer(env, { sourceStores: dynamoSourceStores }), ...portabilityServices(env) };
}

/** The worker: the workspace's stores, its files, the webhooks (read for the archive) and the vault (imported sources); no JWT key. */
export function awsPortabilityWorkerDependencies(env: NodeJS.ProcessEnv = process.env): AppContainer & PortabilityServices & Pick<WebhookServices, 'webhookStores'> {
  const { TABLE_NAME } = parseEnv(tableEnvSchema, env);
  const container = tokenlessContainer(TABLE_NAME, env, {
    files: s3FileStore(parseEnv(bucketEnvSchema, env).BUCKET_NAME),
    vault: awsCredentialVault(env),
    sourceStores: dynamoSourceStores,
    // Read for the archive's audit log.
    auditTableName: auditTableNameOf(env),
  });
  return { ...container, ...portabilityServices(env), webhookStores: dynamoWebhookStores(createDynamoDocumentClient(), TABLE_NAME) };
}
