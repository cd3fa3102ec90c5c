import { ScanCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { LegacyDataAdopter } from '../../../domain/workspaces/ports';
import type { TransactItem } from './label-membership';

type Item = Record<string, unknown>;

/** Partition-key prefixes (and whole keys) of workspace data as versions before workspaces wrote it. */
const LEGACY_PK_PREFIXES = ['DOC#', 'LABEL#', 'LABELNAME#', 'UPLOAD#'];
const LEGACY_PKS = ['COUNTERS', 'OCRSTATS'];
/** gsi1 partitions that listed such data across the whole table. */
const isLegacyListing = (gsi1pk: unknown): gsi1pk is string =>
  typeof gsi1pk === 'string' && (gsi1pk === 'DOCS' || gsi1pk === 'LABELS' || gsi1pk.startsWith('OCRJOBS#'));

/** Items moved per transaction: a put and a delete each, within DynamoDB's 100 actions. */
const ITEMS_PER_TRANSACTION = 25;

/** The item under the workspace's keys (dataKeys in keys.ts): `WS#<id>#` before its partition keys. */
export function adoptedItem(item: Item, workspaceId: string): Item {
  const prefix = `WS#${workspaceId}#`;
  return { ...item, pk: `${prefix}${String(item['pk'])}`, ...(isLegacyListing(item['gsi1pk']) ? { gsi1pk: `${prefix}${item['gsi1pk']}` } : {}) };
}

/**
 * Moves the documents, texts, OCR jobs, labels, memberships, staged uploads and counters that a version before
 * workspaces wrote (no workspace in their keys) under the given workspace's keys: one Scan of the table (it
 * runs once per upgrade, at start or deploy), then a put of each item's adopted copy and a delete of the old one
 * in the same transaction. Idempotent: a second run finds nothing; a copy that exists already is kept.
 */
export class DynamoLegacyItemAdopter implements LegacyDataAdopter {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async adopt(workspaceId: string): Promise<number> {
    let adopted = 0;
    let start: Item | undefined;
    do {
      const page = await this.db.send(
        new ScanCommand({
          TableName: this.tableName,
          FilterExpression: [...LEGACY_PK_PREFIXES.map((_, i) => `begins_with(pk, :p${i})`), 'pk IN (:k0, :k1)'].join(' OR '),
          ExpressionAttributeValues: {
            ...Object.fromEntries(LEGACY_PK_PREFIXES.map((prefix, i) => [`:p${i}`, prefix])),
            ':k0': LEGACY_PKS[0],
            ':k1': LEGACY_PKS[1],
          },
          ConsistentRead: true,
          ExclusiveStartKey: start,
        }),
      );
      const items = page.Items ?? [];
      for (let i = 0; i < items.length; i += ITEMS_PER_TRANSACTION) {
        const batch = items.slice(i, i + ITEMS_PER_TRANSACTION);
        await this.db.send(new TransactWriteCommand({ TransactItems: batch.flatMap((item) => this.move(item, workspaceId)) }));
        adopted += batch.length;
      }
      start = page.LastEvaluatedKey;
    } while (start);
    return adopted;
  }

  private move(item: Item, workspaceId: string): TransactItem[] {
    return [
      { Put: { TableName: this.tableName, Item: adoptedItem(item, workspaceId) } },
      { Delete: { TableName: this.tableName, Key: { pk: item['pk'], sk: item['sk'] } } },
    ];
  }
}
