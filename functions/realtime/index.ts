import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { dynamoConnections } from '../../shared/container/connection-store';
import { awsConnectionSender } from '../../shared/container/kit/aws-connections';
import { awsHttp } from '../../shared/container/kit/aws-http';
import { createRealtimeHandler } from './handler';

const { gate, table, config } = awsHttp();

export const handler = lambdaEntry(
  createRealtimeHandler({
    authenticate: gate.authenticate,
    clock: gate.clock,
    wsAuthTimeoutSeconds: config.WS_AUTH_TIMEOUT_SECONDS,
    connections: dynamoConnections(table.db, table.name, gate.clock),
    connectionSender: awsConnectionSender(process.env),
  }),
);
