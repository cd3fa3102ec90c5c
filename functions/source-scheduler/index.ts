import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { DynamoSourceRepository } from '../../shared/adapters/aws/dynamodb/source-repository';
import { DynamoSourceSchedule } from '../../shared/adapters/aws/dynamodb/source-schedule';
import { DynamoSyncStateStore } from '../../shared/adapters/aws/dynamodb/sync-state-store';
import { workspaceDirectory } from '../../shared/container/kit/accounts';
import { awsSyncQueue } from '../../shared/container/kit/aws-queues';
import { awsWorker } from '../../shared/container/kit/aws-worker';
import { createSourceSchedulerHandler } from './handler';

/* The schedule: the sources' stores and the sync queue, nothing else. */
const { table, clock, env } = awsWorker();

export const handler = lambdaEntry(
  createSourceSchedulerHandler({
    clock,
    sourceSchedule: new DynamoSourceSchedule(table.db, table.name),
    syncQueue: awsSyncQueue(process.env),
    workspaceStatus: workspaceDirectory(table, env, clock).workspaceStatus,
    forWorkspace: (workspaceId) => ({
      workspaceId,
      sources: new DynamoSourceRepository(table.db, table.name, workspaceId),
      syncState: new DynamoSyncStateStore(table.db, table.name, workspaceId),
    }),
  }),
);
