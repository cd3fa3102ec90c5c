import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { RuleJobMessage, RuleJobQueue } from '../../../domain/rules/ports';
import { requestIdMessageAttributes } from '../../../observability/log-context';

/**
 * Steps of rule runs as SQS messages, grouped by workspace as the sync steps are (a fair queue delivers other
 * workspaces' steps while one has a long run). Each carries the request id of the run's start.
 */
export class SqsRuleJobQueue implements RuleJobQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async enqueue(message: RuleJobMessage): Promise<void> {
    await this.sqs.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: JSON.stringify(message),
        MessageGroupId: message.workspace_id,
        MessageAttributes: requestIdMessageAttributes(),
      }),
    );
  }
}
