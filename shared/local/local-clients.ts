import type { ClientOptions } from '../adapters/aws/clients';

/** Where the emulators listen and what the local runtime provisioned in them. */
export interface LocalResources {
  endpoints: { dynamodb: string; s3: string; sqs: string };
  /** The runtime's private DynamoDB Local database: its access key id is a secret kept under DATA_DIR. */
  dynamodbCredentials: LocalCredentials;
  tableName: string;
  bucketName: string;
  ocrQueueUrl: string;
  ocrHighQueueUrl: string;
  /** Object-created events of staged uploads, as the cloud bucket's notification sends them. */
  ingestQueueUrl: string;
  /** Steps of source syncs. */
  sourceSyncQueueUrl: string;
  /** Webhook deliveries, and their retries. */
  webhookDeliveryQueueUrl: string;
  ruleJobsQueueUrl: string;
  /** Exports and imports of workspaces. */
  portabilityQueueUrl: string;
  /** Workspace erasures. */
  erasureQueueUrl: string;
  /** The audit log's table. */
  auditTableName: string;
}

export interface LocalCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/**
 * Static credentials, so no real AWS credentials are ever used locally. The S3 emulator (s3rver) accepts only
 * this pair and the SQS emulator any. DynamoDB Local keeps a database per access key id: the runtime uses its
 * own secret one (`LocalResources.dynamodbCredentials`), tests on an in-memory instance use this pair.
 */
export const LOCAL_CREDENTIALS: LocalCredentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
export const LOCAL_REGION = 'us-east-1';

export const localClientOptions = (endpoint: string, credentials: LocalCredentials = LOCAL_CREDENTIALS): ClientOptions => ({
  endpoint,
  region: LOCAL_REGION,
  credentials,
});
