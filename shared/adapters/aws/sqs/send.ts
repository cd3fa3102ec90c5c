import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { requestIdMessageAttributes } from '../../../observability/log-context';

/**
 * A sender of JSON messages to one queue, for code outside the adapters that must not know the SDK. A message
 * sent within a request carries its id (`request_id` attribute), for the consumer's log lines.
 */
export const jsonMessageSender =
  (sqs: SQSClient, queueUrl: string) =>
  async (body: unknown): Promise<void> => {
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(body), MessageAttributes: requestIdMessageAttributes() }));
  };
