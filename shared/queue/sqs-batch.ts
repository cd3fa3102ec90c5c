import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../logger';

/**
 * A Lambda handler for an SQS event source with partial batch failures (`ReportBatchItemFailures`): each record
 * is processed on its own, and only the ones that threw are reported back, so SQS redelivers those alone and
 * moves them to the dead-letter queue after its maxReceiveCount. The local poller calls it the same way.
 */
export const sqsBatchHandler =
  (name: string, process: (record: SQSRecord) => Promise<void>) =>
  async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const outcomes = await Promise.allSettled(event.Records.map((record) => process(record)));
    const batchItemFailures = outcomes.flatMap((outcome, index) => {
      if (outcome.status === 'fulfilled') return [];
      const record = event.Records[index]!;
      logger.error(`${name}: message failed, it will be retried`, {
        messageId: record.messageId,
        receiveCount: record.attributes.ApproximateReceiveCount,
        error: outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason),
      });
      return [{ itemIdentifier: record.messageId }];
    });
    return { batchItemFailures };
  };
