import { startQueuePoller, type QueuePoller } from './event-sources/sqs-poller';
import { resumeErasures, type ResumeErasuresDeps } from '../domain/erasure/resume-erasures';
import type { EraseWorkspaceDeps } from '../domain/erasure/erase-workspace';
import { createEraserHandler } from '../../functions/eraser/handler';

/**
 * The local eraser: the cloud's handler on the erasure queue, one workspace at a time, over the emulators'
 * table and bucket (unversioned: the S3 emulator implements no versioning) and the SQLite index. Its queue
 * lives in memory, so the erasures an earlier process left unfinished are queued again (`resume`).
 */
export function startLocalEraser(options: {
  deps: EraseWorkspaceDeps;
  resume: ResumeErasuresDeps;
  queueUrl: string;
  sqs: Parameters<typeof startQueuePoller>[0]['sqs'];
  polling: { waitTimeSeconds: number; abortReceiveOnStop: boolean };
}): { poller: QueuePoller; resume: () => Promise<number> } {
  return {
    poller: startQueuePoller({ sqs: options.sqs, queueUrl: options.queueUrl, handler: createEraserHandler(options.deps), batchSize: 1, ...options.polling }),
    resume: () => resumeErasures(options.resume),
  };
}
