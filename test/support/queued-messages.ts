import { DeleteMessageCommand, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';

/**
 * The bodies of every message waiting on the queue, parsed as JSON, taken off it (received and deleted) until a
 * receive finds none: what a use case queued since the last call.
 */
export async function takeQueued<T>(sqs: SQSClient, queueUrl: string): Promise<T[]> {
  const bodies: T[] = [];
  for (;;) {
    // No wait: what was sent before this call is visible at once, so an empty receive means there is no more.
    const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    if (!Messages.length) return bodies;
    for (const message of Messages) {
      bodies.push(JSON.parse(message.Body!) as T);
      await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle }));
    }
  }
}
