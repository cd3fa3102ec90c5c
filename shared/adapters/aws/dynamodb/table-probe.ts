import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { HealthProbe } from '../../../domain/health/ports';

export const tableProbe = (db: DynamoDBDocumentClient, tableName: string): HealthProbe => ({
  name: 'dynamodb',
  check: async () => {
    const { Table } = await db.send(new DescribeTableCommand({ TableName: tableName }));
    if (Table?.TableStatus !== 'ACTIVE') throw new Error(`table ${tableName} is ${Table?.TableStatus}`);
  },
});
