import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { CHANGE_CONSUMER_DELIVERY } from '../../shared/manifest';
import { CHANGE_PARALLELIZATION_FACTOR } from '../stacks/limits';

/** Props of {@link ChangeConsumers}. */
export interface ChangeConsumersProps {
  /** The table whose stream (new and old images) the consumers read. */
  readonly table: dynamodb.ITable;
  /** The consuming functions, by name (`indexer`, `events`). */
  readonly consumers: Readonly<Record<string, lambda.IFunction>>;
  /** Removal policy of the failure queues. */
  readonly removalPolicy: RemovalPolicy;
}

/**
 * The consumers of the table's stream: each function reads every shard from the oldest record kept
 * (TRIM_HORIZON), one batch per shard at a time (its changes in order), reports the first change it could not
 * apply (partial batch response: the batch is retried from it), splits a failing batch in two to find a poison
 * record, and after `CHANGE_CONSUMER_DELIVERY.retryAttempts` retries sends the failed records' description (shard and
 * sequence numbers, not the records) to a failure queue of its own and moves on. The records stay readable in
 * the stream for 24 hours; past that, a repair is the consumer's rebuild (`npm run reindex` for the index).
 */
export class ChangeConsumers extends Construct {
  /** Each consumer's failure queue (on-failure destination), by consumer name. */
  public readonly failureQueues: Readonly<Record<string, sqs.Queue>>;

  constructor(scope: Construct, id: string, props: ChangeConsumersProps) {
    super(scope, id);
    if (!props.table.tableStreamArn) throw new Error(`The table ${props.table.node.path} has no stream for the change consumers to read`);
    const failureQueues: Record<string, sqs.Queue> = {};
    for (const [name, fn] of Object.entries(props.consumers)) {
      const queue = new sqs.Queue(this, `${name}-failures`, {
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        retentionPeriod: Duration.days(14),
        removalPolicy: props.removalPolicy,
      });
      fn.addEventSource(
        new DynamoEventSource(props.table, {
          startingPosition: lambda.StartingPosition.TRIM_HORIZON,
          batchSize: CHANGE_CONSUMER_DELIVERY.batchSize,
          bisectBatchOnError: true,
          reportBatchItemFailures: true,
          retryAttempts: CHANGE_CONSUMER_DELIVERY.retryAttempts,
          parallelizationFactor: CHANGE_PARALLELIZATION_FACTOR,
          onFailure: new SqsDlq(queue),
        }),
      );
      failureQueues[name] = queue;
    }
    this.failureQueues = failureQueues;
  }
}
