import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ChangeLedger } from '../../../domain/changes/ports';
import { systemClock, type Clock } from '../../../domain/clock';
import { isConditionFailure } from './errors';
import { ttlOf } from './keys';

/** A stream keeps records 24 hours; an entry kept twice as long outlives every redelivery of its record. */
const KEEP_MS = 48 * 60 * 60 * 1000;

/** The ledger's item of one change and consumer (operator-level: it holds a stream record's id, no workspace data). */
export const changeLedgerKey = (consumer: string, changeId: string) => ({ pk: `STREAMSEEN#${changeId}`, sk: consumer });

/**
 * The {@link ChangeLedger} in the application table: one item per change a consumer acted on, put on condition
 * that it is not there, removed by TTL after {@link KEEP_MS}. Its own writes come back through the stream as
 * items no consumer follows.
 */
export class DynamoChangeLedger implements ChangeLedger {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock = systemClock,
  ) {}

  async firstDelivery(consumer: string, changeId: string): Promise<boolean> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...changeLedgerKey(consumer, changeId), ttl: ttlOf(new Date(this.clock.now().getTime() + KEEP_MS)) },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }
}
