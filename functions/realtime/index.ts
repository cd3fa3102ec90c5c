import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { DynamoConnectionRepository } from '../../shared/adapters/aws/dynamodb/connection-repository';
import { awsConnectionSender } from '../../shared/container/kit/aws-connections';
import { awsHttp } from '../../shared/container/kit/aws-http';
import { createRealtimeHandler } from './handler';

const { gate, table, config } = awsHttp();

export const handler = lambdaEntry(
  createRealtimeHandler({
    authenticate: gate.authenticate,
    clock: gate.clock,
    wsAuthTimeoutSeconds: config.WS_AUTH_TIMEOUT_SECONDS,
    connections: new DynamoConnectionRepository(table.db, table.name, gate.clock),
    connectionSender: awsConnectionSender(process.env),
  }),
);
