import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoChangeLedger, isChangeLedgerWrite } from '../../../../../shared/adapters/aws/dynamodb/change-ledger';
import { signalWrites } from '../../../../../shared/adapters/aws/dynamodb/write-signal';
import { freshTable } from '../../../../support/aws-resources';

/**
 * The local runtime wakes its stream consumers after its own writes to the table (shared/local/composition.ts):
 * each successful write signals once, reads never do, and the change ledger's own writes (which no consumer
 * follows) do not either.
 */
describe('the signal of the local runtime\'s table writes', () => {
  /** A table and a client of its own whose writes are counted, the change ledger's left out as the runtime does. */
  const signalled = async () => {
    const { db, tableName } = await freshTable();
    const signals = { count: 0 };
    signalWrites(db, () => signals.count++, isChangeLedgerWrite);
    return { db, tableName, signals };
  };

  it('signals each successful write, a put and a transaction alike', async () => {
    const { db, tableName, signals } = await signalled();

    await db.send(new PutCommand({ TableName: tableName, Item: { pk: 'DOC#1', sk: 'META' } }));
    await db.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: tableName, Item: { pk: 'DOC#2', sk: 'META' } } }] }));

    expect(signals.count).toBe(2);
  });

  it('does not signal reads nor writes that failed', async () => {
    const { db, tableName, signals } = await signalled();

    await db.send(new GetCommand({ TableName: tableName, Key: { pk: 'DOC#1', sk: 'META' } }));
    const refused = db.send(new PutCommand({ TableName: tableName, Item: { pk: 'DOC#1', sk: 'META' }, ConditionExpression: 'attribute_exists(pk)' }));
    await expect(refused).rejects.toThrow();

    expect(signals.count).toBe(0);
  });

  it("does not signal the change ledger's own writes", async () => {
    const { db, tableName, signals } = await signalled();

    const fresh = await new DynamoChangeLedger(db, tableName).firstDeliveries('events', ['change-1', 'change-2']);

    expect(fresh).toEqual(new Set(['change-1', 'change-2']));
    expect(signals.count).toBe(0);
  });
});
