import { GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { ensureQueueWithDlq } from '../../../shared/adapters/aws/provisioning';
import { SqsMessageRedelivery } from '../../../shared/adapters/aws/sqs-redelivery';
import { testClients, uniqueName } from '../../support/aws-resources';

/** A queue holding one message, received with the OCR queues' long visibility timeout, as Lambda gets it. */
async function receivedMessage() {
  const { sqs } = testClients();
  const { queueUrl } = await ensureQueueWithDlq(sqs, uniqueName('redelivery'), { visibilityTimeoutSeconds: 5400 });
  const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }));
  await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: '{"job":1}' }));
  const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, WaitTimeSeconds: 2 }));
  const message = Messages[0]!;
  const record = {
    messageId: message.MessageId!,
    receiptHandle: message.ReceiptHandle!,
    body: message.Body!,
    eventSourceARN: Attributes!['QueueArn']!,
  } as SQSRecord;
  return { sqs, queueUrl, record };
}

const receive = (queueUrl: string, waitSeconds: number) =>
  testClients().sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, WaitTimeSeconds: waitSeconds }));

describe('SqsMessageRedelivery', () => {
  it('makes a received message visible again after the given seconds, not the queue visibility timeout', async () => {
    const { sqs, queueUrl, record } = await receivedMessage();

    await new SqsMessageRedelivery(sqs).redeliverAfter(record, 1);

    const { Messages = [] } = await receive(queueUrl, 5);
    expect(Messages.map((message) => message.Body)).toEqual(['{"job":1}']);
  });

  it('keeps the message hidden for the delay', async () => {
    const { sqs, queueUrl, record } = await receivedMessage();

    await new SqsMessageRedelivery(sqs).redeliverAfter(record, 30);

    const { Messages = [] } = await receive(queueUrl, 1);
    expect(Messages).toEqual([]);
  });
});
