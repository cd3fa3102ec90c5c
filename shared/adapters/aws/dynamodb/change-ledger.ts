import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ChangeLedger } from '../../../domain/changes/ports';
import { systemClock, type Clock } from '../../../domain/clock';
import { isConditionFailure } from './errors';
import { ttlOf } from './keys';

/** A stream keeps records 24 hours; an entry kept twice as long outlives every redelivery of its record. */
const KEEP_MS = 48 * 60 * 60 * 1000;

const LEDGER_PREFIX = 'STREAMSEEN#';

/** The ledger's item of one change and consumer (operator-level: it holds a stream record's id, no workspace data). */
export const changeLedgerKey = (consumer: string, changeId: string) => ({ pk: `${LEDGER_PREFIX}${changeId}`, sk: consumer });

/** Whether a write is the ledger's own (a PutItem of its item, as the SDK sends it, marshalled or not). */
export const isChangeLedgerWrite = (input: { Item?: Record<string, unknown> }): boolean => {
  const pk = input.Item?.['pk'];
  const value = typeof pk === 'object' && pk !== null && 'S' in pk ? (pk as { S: unknown }).S : pk;
  return typeof value === 'string' && value.startsWith(LEDGER_PREFIX);
};

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
