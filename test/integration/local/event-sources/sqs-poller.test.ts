import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { ensureQueueWithDlq } from '../../../../shared/adapters/aws/provisioning';
import { startQueuePoller } from '../../../../shared/local/event-sources/sqs-poller';
import { testClients, uniqueName } from '../../../support/aws-resources';

const { sqs } = testClients();

/** How long `work` took, in ms. */
const timed = async (work: () => Promise<unknown>): Promise<number> => {
  const started = Date.now();
  await work();
  return Date.now() - started;
};

describe('queue poller: stopping during a long poll', () => {
  it('cuts its 20-second long poll short when told to', async () => {
    const { queueUrl } = await ensureQueueWithDlq(sqs, uniqueName('stop-abort'), { visibilityTimeoutSeconds: 30 });
    const poller = startQueuePoller({ sqs, queueUrl, handler: async () => undefined, waitTimeSeconds: 20, abortReceiveOnStop: true });
    await new Promise((resolve) => setTimeout(resolve, 500));

    const stopMs = await timed(() => poller.stop());

    expect(stopMs).toBeLessThan(10_000);
  });

  it('waits out its long poll by default, since what an aborted receive took would stay invisible', async () => {
    const { queueUrl } = await ensureQueueWithDlq(sqs, uniqueName('stop-wait'), { visibilityTimeoutSeconds: 30 });
    const poller = startQueuePoller({ sqs, queueUrl, handler: async () => undefined, waitTimeSeconds: 3 });
    await new Promise((resolve) => setTimeout(resolve, 500));

    const stopMs = await timed(() => poller.stop());

    expect(stopMs).toBeGreaterThanOrEqual(1500);
  });

  it('receives a message at once during a long poll', async () => {
    const { queueUrl } = await ensureQueueWithDlq(sqs, uniqueName('stop-wake'), { visibilityTimeoutSeconds: 30 });
    let received: () => void = () => undefined;
    const delivered = new Promise<void>((resolve) => (received = resolve));
    const poller = startQueuePoller({ sqs, queueUrl, handler: async () => received(), waitTimeSeconds: 20, abortReceiveOnStop: true });
    await new Promise((resolve) => setTimeout(resolve, 500));

    const deliveryMs = await timed(async () => {
      await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'wake up' }));
      await delivered;
    });
    await poller.stop();

    expect(deliveryMs).toBeLessThan(10_000);
  });
});
