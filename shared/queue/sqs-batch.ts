import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type * as z from '../zod';
import { logger } from '../observability/logger';
import { recordLogContext, withLogContext } from '../observability/log-context';
import { withMessageTrace } from '../adapters/otel/message-tracing';
import { processTracing } from '../adapters/otel/process-tracing';

/**
 * A Lambda handler for an SQS event source with partial batch failures (`ReportBatchItemFailures`): each record
 * is processed on its own, and only the ones that threw are reported back, so SQS redelivers those alone and
 * moves them to the dead-letter queue after its maxReceiveCount. The local poller calls it the same way.
 *
 * Each record is processed in a log context of its own: its `message_id`, and the `request_id` of the request
 * that sent it (its message attribute), so a worker's lines can be found with the request that caused them;
 * and, when the process traces, in a span of the trace it was sent in (adapters/otel/message-tracing.ts).
 */
export const sqsBatchHandler =
  (name: string, process: (record: SQSRecord) => Promise<void>) =>
  async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const processTraced = (record: SQSRecord) => (processTracing ? withMessageTrace(processTracing, name, record, () => process(record)) : process(record));
    const outcomes = await Promise.allSettled(event.Records.map((record) => withLogContext(recordLogContext(record), () => processTraced(record))));
    const batchItemFailures = outcomes.flatMap((outcome, index) => {
      if (outcome.status === 'fulfilled') return [];
      const record = event.Records[index]!;
      withLogContext(recordLogContext(record), () =>
        logger.error(`${name}: message failed, it will be retried`, {
          receive_count: record.attributes.ApproximateReceiveCount,
          error: outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason),
        }),
      );
      return [{ itemIdentifier: record.messageId }];
    });
    return { batchItemFailures };
  };

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * {@link sqsBatchHandler} for JSON messages of one shape: a body that is not JSON or does not match the schema
 * is logged and dropped (a retry cannot fix it, so it must not go round to the DLQ); the rest go to `process`.
 */
export const sqsJsonHandler = <S extends z.ZodMiniType>(
  name: string,
  schema: S,
  process: (body: z.output<S>, record: SQSRecord) => Promise<void>,
) =>
  sqsBatchHandler(name, async (record) => {
    const parsed = schema.safeParse(parseJson(record.body));
    if (!parsed.success) {
      logger.warn(`${name}: malformed message dropped`);
      return;
    }
    await process(parsed.data, record);
  });
