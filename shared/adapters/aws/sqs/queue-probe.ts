import { GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { HealthProbe } from '../../../domain/health/ports';

// Apart from the table's probe (dynamodb/table-probe.ts), as the bucket's is, so that importing that one does not make
// the SQS client part of a cold start (see client.ts).
export const queueProbe = (sqs: SQSClient, queueUrl: string): HealthProbe => ({
  name: 'sqs',
  check: async () => {
    await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }));
  },
});
