import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { DynamoQuotaCounts } from '../../shared/adapters/aws/dynamodb/quota-counts';
import { dynamoConnections } from '../../shared/container/connection-store';
import { awsHttp } from '../../shared/container/kit/aws-http';
import { passwordHasher } from '../../shared/container/kit/serving';
import { createUsersHandler } from './handler';

const { gate, table, config } = awsHttp();

export const handler = lambdaEntry(
  createUsersHandler({
    ...gate,
    passwords: passwordHasher(config),
    // A password change or a member's removal ends their WebSocket sessions.
    connections: dynamoConnections(table.db, table.name, gate.clock),
    quotaCounts: new DynamoQuotaCounts(table.db, table.name),
    apiTokenMaxDays: config.API_TOKEN_MAX_DAYS,
  }),
);
