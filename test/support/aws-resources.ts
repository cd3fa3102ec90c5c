import { inject } from 'vitest';
import { createDynamoDocumentClient } from '../../shared/adapters/aws/clients';
import { createSqsClient } from '../../shared/adapters/aws/sqs/client';
import { createS3Client } from '../../shared/adapters/aws/s3/client';
import { ensureTable } from '../../shared/adapters/aws/provisioning';
import { localClientOptions } from '../../shared/local/local-clients';

/** SDK clients pointed at the engines the integration global setup started (or LocalStack). */
export const testClients = () => {
  const endpoints = inject('awsEndpoints');
  return {
    dynamo: createDynamoDocumentClient(localClientOptions(endpoints.dynamodb)),
    s3: createS3Client(localClientOptions(endpoints.s3)),
    sqs: createSqsClient(localClientOptions(endpoints.sqs)),
  };
};

export const uniqueName = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

/** A fresh application table of its own, so that test files never see each other's items. */
export async function freshTable(): Promise<{ db: ReturnType<typeof testClients>['dynamo']; tableName: string }> {
  const { dynamo } = testClients();
  const tableName = uniqueName('test');
  await ensureTable(dynamo, tableName);
  return { db: dynamo, tableName };
}
