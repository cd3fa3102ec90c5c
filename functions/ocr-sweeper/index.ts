import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { workspaceDirectory } from '../../shared/container/kit/accounts';
import { OCR_STALE_AFTER_SECONDS } from '../../shared/container/kit/aws-env';
import { ocrQueues } from '../../shared/container/kit/aws-queues';
import { awsWorker } from '../../shared/container/kit/aws-worker';
import { ocrJobRepository } from '../../shared/container/kit/workspace-stores';
import { createOcrSweeperHandler } from './handler';

const { table, clock, env } = awsWorker();
const directory = workspaceDirectory(table, env, clock);
const ocrJobs = ocrJobRepository(table, clock, directory);
const queues = ocrQueues(process.env);

export const handler = lambdaEntry(
  createOcrSweeperHandler({
    workspaces: directory.workspaces,
    clock,
    forWorkspace: (workspaceId) => ({ ocrJobs: ocrJobs(workspaceId), ocrQueue: queues.forWorkspace(workspaceId) }),
    queuedForSeconds: 30 * 60,
    silentForSeconds: OCR_STALE_AFTER_SECONDS,
  }),
);
