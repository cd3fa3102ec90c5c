import { ChangeMessageVisibilityCommand, GetQueueUrlCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import type { MessageRedelivery } from '../../queue/redelivery';

/**
 * {@link MessageRedelivery} through ChangeMessageVisibility on the queue the record came from. The queue's URL
 * is asked of SQS once per queue (from the record's ARN: name and owner), so it works against any endpoint.
 */
export class SqsMessageRedelivery implements MessageRedelivery {
  private readonly queueUrls = new Map<string, Promise<string>>();

  constructor(private readonly sqs: SQSClient) {}

  async redeliverAfter(record: SQSRecord, seconds: number): Promise<void> {
    await this.sqs.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: await this.queueUrl(record.eventSourceARN),
        ReceiptHandle: record.receiptHandle,
        VisibilityTimeout: Math.max(0, Math.min(43_200, Math.round(seconds))),
      }),
    );
  }

  private queueUrl(arn: string): Promise<string> {
    let url = this.queueUrls.get(arn);
    if (!url) {
      // arn:aws:sqs:<region>:<account>:<name>
      const [, , , , account, name] = arn.split(':');
      url = this.sqs
        .send(new GetQueueUrlCommand({ QueueName: name, ...(account ? { QueueOwnerAWSAccountId: account } : {}) }))
        .then(({ QueueUrl }) => {
          if (!QueueUrl) throw new Error(`SQS knows no queue ${arn}`);
          return QueueUrl;
        });
      url.catch(() => this.queueUrls.delete(arn));
      this.queueUrls.set(arn, url);
    }
    return url;
  }
}
