import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { DynamoErasureRepository } from '../../shared/adapters/aws/dynamodb/erasure-repository';
import { DynamoSourceRepository } from '../../shared/adapters/aws/dynamodb/source-repository';
import { DynamoConnectionRepository } from '../../shared/adapters/aws/dynamodb/connection-repository';
import { awsErasureQueue } from '../../shared/container/kit/aws-queues';
import { awsHttp } from '../../shared/container/kit/aws-http';
import { createWorkspacesHandler } from './handler';

const { gate, table } = awsHttp();

export const handler = lambdaEntry(
  createWorkspacesHandler({
    ...gate,
    // A suspension ends the workspace's WebSocket sessions.
    connections: new DynamoConnectionRepository(table.db, table.name, gate.clock),
    erasures: new DynamoErasureRepository(table.db, table.name),
    erasureQueue: awsErasureQueue(process.env),
    // A workspace's overview counts its sources against its plan.
    forWorkspace: (workspaceId) => ({ sources: new DynamoSourceRepository(table.db, table.name, workspaceId) }),
  }),
);
