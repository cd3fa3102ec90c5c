import { ocrMessageWorkspace } from '../../adapters/aws/sqs/ocr-job-queue';

/**
 * How the local runtime polls the OCR queues, for the guarantee SQS fair queues give in the cloud: workspaces
 * take turns for the job slots (see `startQueuePoller`), and 1,000 jobs per queue are received ahead of the free
 * slots (about 1 MB), so a workspace's job is seen behind up to that many jobs of others.
 */
export const LOCAL_OCR_POLLING = { tenantOf: ocrMessageWorkspace, prefetch: 1000 } as const;
