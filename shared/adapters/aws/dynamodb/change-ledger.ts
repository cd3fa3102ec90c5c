import { TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ChangeLedger } from '../../../domain/changes/ports';
import { systemClock, type Clock } from '../../../domain/clock';
import { failedConditions } from './errors';
import { ttlOf } from './keys';

/** A stream keeps records 24 hours; an entry kept twice as long outlives every redelivery of its record. */
const KEEP_MS = 48 * 60 * 60 * 1000;

const LEDGER_PREFIX = 'STREAMSEEN#';

/** The ledger's item of one change and consumer (operator-level: it holds a stream record's id, no workspace data). */
export const changeLedgerKey = (consumer: string, changeId: string) => ({ pk: `${LEDGER_PREFIX}${changeId}`, sk: consumer });

/** Whether a write is the ledger's own: a transaction of puts of its items, as the SDK sends it, marshalled or not. */
export const isChangeLedgerWrite = (input: { TransactItems?: Array<{ Put?: { Item?: Record<string, unknown> } }> }): boolean => {
  const items = input.TransactItems ?? [];
  return items.length > 0 && items.every((item) => isLedgerItem(item.Put?.Item));
};

const isLedgerItem = (item: Record<string, unknown> | undefined): boolean => {
  const pk = item?.['pk'];
  const value = typeof pk === 'object' && pk !== null && 'S' in pk ? (pk as { S: unknown }).S : pk;
  return typeof value === 'string' && value.startsWith(LEDGER_PREFIX);
};

/** Items of one transaction: DynamoDB's limit. */
const TRANSACTION_ITEMS = 100;

/**
 * The {@link ChangeLedger} in the application table: one item per change a consumer acted on, removed by TTL
 * after {@link KEEP_MS}. A batch's entries are put in one transaction (100 a request), each on condition that
 * it is not there: one call a batch, not one a change. When some were there (a delivery again), the
 * transaction is cancelled with the reason per item, and it is sent again without them. In the cloud a
 * transactional put costs two write units instead of one. Its own writes come back through the stream as items
 * no consumer follows.
 */
export class DynamoChangeLedger implements ChangeLedger {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock = systemClock,
  ) {}

  async firstDeliveries(consumer: string, changeIds: readonly string[]): Promise<Set<string>> {
    const unique = [...new Set(changeIds)];
    const fresh = new Set<string>();
    for (let start = 0; start < unique.length; start += TRANSACTION_ITEMS) {
      for (const id of await this.record(consumer, unique.slice(start, start + TRANSACTION_ITEMS))) fresh.add(id);
    }
    return fresh;
  }

  /** Puts the entries of `ids` that are not there yet, and returns their ids. */
  private async record(consumer: string, ids: string[]): Promise<string[]> {
    const ttl = ttlOf(new Date(this.clock.now().getTime() + KEEP_MS));
    let pending = ids;
    while (pending.length) {
      try {
        await this.db.send(
          new TransactWriteCommand({
            TransactItems: pending.map((id) => ({
              Put: { TableName: this.tableName, Item: { ...changeLedgerKey(consumer, id), ttl }, ConditionExpression: 'attribute_not_exists(pk)' },
            })),
          }),
        );
        return pending;
      } catch (error) {
        const seen = failedConditions(error);
        if (!seen?.length) throw error;
        pending = pending.filter((_, index) => !seen.includes(index));
      }
    }
    return [];
  }
}
