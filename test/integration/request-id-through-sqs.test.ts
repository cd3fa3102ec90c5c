import { afterEach, describe, expect, it } from 'vitest';
import * as z from '../../shared/zod';
import { ensureQueueWithDlq } from '../../shared/adapters/aws/provisioning';
import { jsonMessageSender } from '../../shared/adapters/aws/sqs/send';
import { SqsOcrJobQueue } from '../../shared/adapters/aws/sqs/ocr-job-queue';
import { startQueuePoller, type QueuePoller } from '../../shared/local/event-sources/sqs-poller';
import { SqsSyncQueue } from '../../shared/adapters/aws/sqs/sync-queue';
import { httpHandler } from '../../shared/http/pipeline';
import { json } from '../../shared/http/responses';
import { route } from '../../shared/http/route';
import { currentLogContext, withLogContext, type LogContext } from '../../shared/observability/log-context';
import { sqsJsonHandler } from '../../shared/queue/sqs-batch';
import { httpEvent, lambdaTestContext } from '../support/http-events';
import { testClients, uniqueName } from '../support/aws-resources';
import { until } from '../support/until';

const { sqs } = testClients();

const pollers: QueuePoller[] = [];
afterEach(async () => {
  await Promise.all(pollers.splice(0).map((poller) => poller.stop()));
});

/** A queue on the SQS emulator, and the log context each message it delivers was processed in (by message id). */
async function consumedQueue() {
  const { queueUrl } = await ensureQueueWithDlq(sqs, uniqueName('request-id'), { visibilityTimeoutSeconds: 30 });
  const contexts: LogContext[] = [];
  const handler = sqsJsonHandler('probe', z.looseObject({}), async () => {
    contexts.push(currentLogContext());
  });
  const consume = () => pollers.push(startQueuePoller({ sqs, queueUrl, handler, waitTimeSeconds: 1 }));
  const delivered = async (count: number) => {
    await until(() => contexts.length >= count);
    return contexts;
  };
  return { queueUrl, consume, delivered };
}

describe('the request id from an HTTP request to the worker of its messages', () => {
  it('gives the OCR worker the id of the request that queued the job', async () => {
    // Arrange
    const { queueUrl, consume, delivered } = await consumedQueue();
    const jobs = new SqsOcrJobQueue(sqs, { normal: queueUrl, high: queueUrl });
    const handler = httpHandler({
      corsOrigins: [],
      routes: [
        route({
          key: 'POST /api/jobs',
          access: 'public',
          handle: async () => {
            await jobs.forWorkspace('w-1').enqueue({ documentId: 'd-1', run: 1, priority: 'normal' });
            return json(202, {});
          },
        }),
      ],
    });
    const event = httpEvent('POST /api/jobs');

    // Act
    await handler(event, lambdaTestContext);
    consume();
    const [context, ...more] = await delivered(1);

    // Assert
    expect(more).toEqual([]);
    expect(context).toEqual({ message_id: expect.any(String), request_id: event.requestContext.requestId });
  });

  it('gives the sync worker the id of the request that started the sync', async () => {
    // Arrange
    const { queueUrl, consume, delivered } = await consumedQueue();
    const syncs = new SqsSyncQueue(sqs, queueUrl);

    // Act
    await withLogContext({ request_id: 'req-sync' }, () =>
      syncs.enqueue({ workspace_id: 'w-1', source_id: 's-1', job_id: 'j-1' }),
    );
    consume();
    const [context] = await delivered(1);

    // Assert
    expect(context?.['request_id']).toBe('req-sync');
  });

  it('leaves the request id out for a message sent outside any request', async () => {
    // Arrange
    const { queueUrl, consume, delivered } = await consumedQueue();

    // Act
    await jsonMessageSender(sqs, queueUrl)({ from: 'a schedule' });
    consume();
    const [context] = await delivered(1);

    // Assert
    expect(context).toEqual({ message_id: expect.any(String) });
  });
});
