import { createDynamoDocumentClient, createS3Client, createSqsClient, type ClientOptions } from '../adapters/aws/clients';
import { bucketProbe, queueProbe, tableProbe } from '../adapters/aws/health-probes';
import { S3FileStore } from '../adapters/aws/s3-file-store';
import { SqsOcrJobQueue } from '../adapters/aws/sqs-ocr-job-queue';
import { sha256 } from '../adapters/crypto/sha256';
import { WasmThumbnailRenderer } from '../adapters/imaging/thumbnail-renderer';
import type { Clock } from '../domain/clock';
import { buildAppContainer, type AppContainer, type DocumentServices } from './app-container';
import type { CommonEnv } from './config';

/** Where the emulators listen and what the local runtime provisioned in them. */
export interface LocalResources {
  endpoints: { dynamodb: string; s3: string; sqs: string };
  tableName: string;
  bucketName: string;
  ocrQueueUrl: string;
  /** Object-created events of staged uploads, as the cloud bucket's notification sends them. */
  ingestQueueUrl: string;
}

/**
 * Static credentials, so no real AWS credentials are ever used locally. The S3 emulator (s3rver) accepts only
 * this pair; DynamoDB Local (shared database) and the SQS emulator accept any.
 */
export const LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
export const LOCAL_REGION = 'us-east-1';

export const localClientOptions = (endpoint: string): ClientOptions => ({
  endpoint,
  region: LOCAL_REGION,
  credentials: LOCAL_CREDENTIALS,
});

/**
 * The local composition root: the same adapters as the cloud, with SDK clients pointed at the emulators on
 * loopback and the JWT key read from DATA_DIR instead of Secrets Manager.
 */
export function localAppContainer(options: {
  resources: LocalResources;
  jwtKey: Uint8Array;
  env: CommonEnv;
  clock?: Clock;
}): AppContainer & DocumentServices {
  const { resources } = options;
  const db = createDynamoDocumentClient(localClientOptions(resources.endpoints.dynamodb));
  const s3 = createS3Client(localClientOptions(resources.endpoints.s3));
  const sqs = createSqsClient(localClientOptions(resources.endpoints.sqs));
  const app = buildAppContainer({
    db,
    tableName: resources.tableName,
    jwtKey: async () => options.jwtKey,
    env: options.env,
    ...(options.clock ? { clock: options.clock } : {}),
    healthProbes: [
      tableProbe(db, resources.tableName),
      bucketProbe(s3, resources.bucketName),
      queueProbe(sqs, resources.ocrQueueUrl),
    ],
  });
  return {
    ...app,
    files: new S3FileStore(s3, resources.bucketName),
    ocrQueue: new SqsOcrJobQueue(sqs, resources.ocrQueueUrl),
    thumbnails: new WasmThumbnailRenderer(),
    sha256,
  };
}
