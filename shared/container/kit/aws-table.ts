import { createDynamoDocumentClient } from '../../adapters/aws/clients';
import { parseEnv, tableEnvSchema } from './config';
import type { Table } from './table';

/** The application's table (TABLE_NAME) over one DynamoDB client per function instance. */
export const awsTable = (env: NodeJS.ProcessEnv = process.env): Table => ({ db: createDynamoDocumentClient(), name: parseEnv(tableEnvSchema, env).TABLE_NAME });
