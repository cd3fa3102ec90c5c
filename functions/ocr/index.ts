import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { DynamoConnectionRepository } from '../../shared/adapters/aws/dynamodb/connection-repository';
import { ocrWorkers, textractLanguages } from '../../shared/container/kit/aws-env';
import { awsHttp } from '../../shared/container/kit/aws-http';
import { ocrQueues } from '../../shared/container/kit/aws-queues';
import { hostProbe } from '../../shared/container/kit/serving';
import { ocrJobRepository } from '../../shared/container/kit/workspace-stores';
import { createOcrHandler } from './handler';

const { gate, table, config } = awsHttp();
const queues = ocrQueues(process.env);
const ocrJobs = ocrJobRepository(table, gate.clock, gate);

export const handler = lambdaEntry(
  createOcrHandler({
    ...gate,
    // The system metrics count the open WebSocket connections and measure the instance against its memory.
    connections: new DynamoConnectionRepository(table.db, table.name, gate.clock),
    host: hostProbe({
      dataPath: '/tmp',
      ...(config.AWS_LAMBDA_FUNCTION_MEMORY_SIZE ? { memoryLimitBytes: config.AWS_LAMBDA_FUNCTION_MEMORY_SIZE * 1024 * 1024 } : {}),
    }),
    ocrLanguages: textractLanguages,
    ocrWorkers: ocrWorkers(process.env),
    forWorkspace: (workspaceId) => ({ workspaceId, ocrJobs: ocrJobs(workspaceId), ocrQueue: queues.forWorkspace(workspaceId) }),
  }),
);
