import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';

/** A sender of JSON messages to one queue, for code outside the adapters that must not know the SDK. */
export const jsonMessageSender =
  (sqs: SQSClient, queueUrl: string) =>
  async (body: unknown): Promise<void> => {
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(body) }));
  };
