import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { HealthProbe } from '../../domain/health/ports';

export const tableProbe = (db: DynamoDBDocumentClient, tableName: string): HealthProbe => ({
  name: 'dynamodb',
  check: async () => {
    const { Table } = await db.send(new DescribeTableCommand({ TableName: tableName }));
    if (Table?.TableStatus !== 'ACTIVE') throw new Error(`table ${tableName} is ${Table?.TableStatus}`);
  },
});

export const queueProbe = (sqs: SQSClient, queueUrl: string): HealthProbe => ({
  name: 'sqs',
  check: async () => {
    await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }));
  },
});
