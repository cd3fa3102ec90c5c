import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { changeLedgerKey, DynamoChangeLedger } from '../../../../../shared/adapters/aws/dynamodb/change-ledger';
import { freshTable } from '../../../../support/aws-resources';

const NOW = new Date('2026-11-26T10:00:00.000Z');
const clock = { now: () => NOW };
const ids = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}-${i}`);

describe('the change ledger on DynamoDB Local', () => {
  it('returns every change of a first delivery, and none when the same changes come again', async () => {
    const { db, tableName } = await freshTable();
    const ledger = new DynamoChangeLedger(db, tableName, clock);

    const first = await ledger.firstDeliveries('events', ['a', 'b']);
    const again = await ledger.firstDeliveries('events', ['a', 'b']);

    expect(first).toEqual(new Set(['a', 'b']));
    expect(again).toEqual(new Set());
  });

  it('returns only the changes no earlier delivery recorded when a batch overlaps one', async () => {
    const { db, tableName } = await freshTable();
    const ledger = new DynamoChangeLedger(db, tableName, clock);
    await ledger.firstDeliveries('events', ['a', 'b']);

    const fresh = await ledger.firstDeliveries('events', ['b', 'c', 'c']);

    expect(fresh).toEqual(new Set(['c']));
  });

  it('keeps the deliveries of each consumer apart', async () => {
    const { db, tableName } = await freshTable();
    const ledger = new DynamoChangeLedger(db, tableName, clock);
    await ledger.firstDeliveries('events', ['a']);

    expect(await ledger.firstDeliveries('indexer', ['a'])).toEqual(new Set(['a']));
  });

  it('records a batch larger than one transaction (100 entries), an earlier delivery\'s entries among them', async () => {
    const { db, tableName } = await freshTable();
    const ledger = new DynamoChangeLedger(db, tableName, clock);
    await ledger.firstDeliveries('events', ids('early', 60));

    const fresh = await ledger.firstDeliveries('events', [...ids('early', 60), ...ids('late', 70)]);

    expect(fresh).toEqual(new Set(ids('late', 70)));
  });

  it('lets an entry expire 48 hours after it was recorded, past the stream retention', async () => {
    const { db, tableName } = await freshTable();
    await new DynamoChangeLedger(db, tableName, clock).firstDeliveries('events', ['a']);

    const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: changeLedgerKey('events', 'a') }));

    expect(Item?.['ttl']).toBe(NOW.getTime() / 1000 + 48 * 3600);
  });
});
