import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { describe, expect, inject, it } from 'vitest';
import { lazySqsOcrJobQueues } from '../../../../../shared/adapters/aws/sqs/lazy-ocr-job-queues';
import { ensureQueueWithDlq } from '../../../../../shared/adapters/aws/provisioning';
import { SqsOcrJobQueue } from '../../../../../shared/adapters/aws/sqs/ocr-job-queue';
import type { OcrJobQueues } from '../../../../../shared/domain/ocr/ports';
import { localClientOptions } from '../../../../../shared/local/local-clients';
import { testClients, uniqueName } from '../../../../support/aws-resources';

/** The queues as built, or loaded on their first send (the OCR worker's). */
const makers: [name: string, make: (urls: { normal: string; high: string }) => OcrJobQueues][] = [
  ['SqsOcrJobQueue', (urls) => new SqsOcrJobQueue(testClients().sqs, urls)],
  ['lazySqsOcrJobQueues', (urls) => lazySqsOcrJobQueues(urls, localClientOptions(inject('awsEndpoints').sqs))],
];

describe.each(makers)('%s', (_name, make) => {
  async function queueOfOneWorkspace() {
    const { sqs } = testClients();
    const normal = await ensureQueueWithDlq(sqs, uniqueName('ocr-delay'), { visibilityTimeoutSeconds: 30 });
    const high = await ensureQueueWithDlq(sqs, uniqueName('ocr-delay-high'), { visibilityTimeoutSeconds: 30 });
    const workspaceId = crypto.randomUUID();
    const queue = make({ normal: normal.queueUrl, high: high.queueUrl }).forWorkspace(workspaceId);
    const receive = (waitSeconds: number) => sqs.send(new ReceiveMessageCommand({ QueueUrl: normal.queueUrl, WaitTimeSeconds: waitSeconds }));
    return { queue, receive, workspaceId };
  }

  it('holds a delayed job back until its delay has passed', async () => {
    const { queue, receive } = await queueOfOneWorkspace();
    const documentId = crypto.randomUUID();

    await queue.enqueue({ documentId, run: 2, priority: 'normal', deferrals: 3 }, { delaySeconds: 2 });

    expect((await receive(0)).Messages ?? []).toHaveLength(0);
    const { Messages = [] } = await receive(5);
    expect(Messages).toHaveLength(1);
  });

  it('carries the deferral count and the workspace in the message body', async () => {
    const { queue, receive, workspaceId } = await queueOfOneWorkspace();
    const documentId = crypto.randomUUID();

    await queue.enqueue({ documentId, run: 2, priority: 'normal', deferrals: 3 });

    const { Messages = [] } = await receive(2);
    expect(JSON.parse(Messages[0]!.Body!)).toEqual({ workspace_id: workspaceId, document_id: documentId, run: 2, priority: 'normal', deferrals: 3 });
  });
});
