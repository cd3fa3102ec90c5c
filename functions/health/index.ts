import * as z from '../../shared/zod';
import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { createDynamoDocumentClient } from '../../shared/adapters/aws/clients';
import { tableProbe } from '../../shared/adapters/aws/dynamodb/table-probe';
import { bucketProbe } from '../../shared/adapters/aws/s3/bucket-probe';
import { createS3Client } from '../../shared/adapters/aws/s3/client';
import { createSqsClient } from '../../shared/adapters/aws/sqs/client';
import { queueProbe } from '../../shared/adapters/aws/sqs/queue-probe';
import { commonEnvSchema, envText, parseEnv } from '../../shared/container/kit/config';
import { createHealthHandler } from './handler';

/* The probes of the health endpoint: the table, the bucket and the OCR queue. */
const config = parseEnv(
  z.object({ TABLE_NAME: envText, BUCKET_NAME: envText, OCR_QUEUE_URL: z.url(), CORS_ORIGINS: commonEnvSchema.shape.CORS_ORIGINS }),
  process.env,
);

export const handler = lambdaEntry(
  createHealthHandler({
    healthProbes: [
      tableProbe(createDynamoDocumentClient(), config.TABLE_NAME),
      bucketProbe(createS3Client(), config.BUCKET_NAME),
      queueProbe(createSqsClient(), config.OCR_QUEUE_URL),
    ],
    corsOrigins: config.CORS_ORIGINS,
  }),
);
