import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { DynamoQuotaCounts } from '../../shared/adapters/aws/dynamodb/quota-counts';
import { DynamoConnectionRepository } from '../../shared/adapters/aws/dynamodb/connection-repository';
import { awsHttp } from '../../shared/container/kit/aws-http';
import { passwordHasher } from '../../shared/container/kit/serving';
import { createUsersHandler } from './handler';

const { gate, table, config } = awsHttp();

export const handler = lambdaEntry(
  createUsersHandler({
    ...gate,
    passwords: passwordHasher(config),
    // A password change or a member's removal ends their WebSocket sessions.
    connections: new DynamoConnectionRepository(table.db, table.name, gate.clock),
    quotaCounts: new DynamoQuotaCounts(table.db, table.name),
    apiTokenMaxDays: config.API_TOKEN_MAX_DAYS,
  }),
);
