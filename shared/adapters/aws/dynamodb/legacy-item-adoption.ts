import { GetCommand, PutCommand, ScanCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { LegacyDataAdopter } from '../../../domain/workspaces/ports';
import { monthOf } from '../../../domain/usage/usage';
import { dataKeys } from './keys';
import type { TransactItem } from './label-membership';
import { usageMove } from './usage-repository';

type Item = Record<string, unknown>;

/** Partition-key prefixes (and whole keys) of workspace data as versions before workspaces wrote it. */
const LEGACY_PK_PREFIXES = ['DOC#', 'LABEL#', 'LABELNAME#', 'UPLOAD#'];
const LEGACY_PKS = ['COUNTERS', 'OCRSTATS'];
/** gsi1 partitions that listed such data across the whole table. */
const isLegacyListing = (gsi1pk: unknown): gsi1pk is string =>
  typeof gsi1pk === 'string' && (gsi1pk === 'DOCS' || gsi1pk === 'LABELS' || gsi1pk.startsWith('OCRJOBS#'));

/** Written when the adoption has run to its end: later starts skip the Scan. */
const ADOPTION_DONE = { pk: 'MIGRATION#legacy-items', sk: 'DONE' };

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
 * in the same transaction, with the usage the documents stand for (see `usageOf`). Idempotent, and done once:
 * a marker item written at the end makes later runs skip the Scan (a run cut short scans again).
 */
export class DynamoLegacyItemAdopter implements LegacyDataAdopter {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async adopt(workspaceId: string): Promise<number> {
    // Once done, never again: the Scan reads the whole table, which every start would otherwise pay for.
    const { Item: done } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: ADOPTION_DONE, ConsistentRead: true }));
    if (done) return 0;
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
        const moves = batch.flatMap((item) => this.move(item, workspaceId));
        await this.db.send(new TransactWriteCommand({ TransactItems: [...moves, ...this.usageOf(batch, workspaceId)] }));
        adopted += batch.length;
      }
      start = page.LastEvaluatedKey;
    } while (start);
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: { ...ADOPTION_DONE, workspace_id: workspaceId, adopted } }));
    return adopted;
  }

  /**
   * The usage the adopted documents stand for, which no meter counted: each one an upload in the month it was
   * created, so the workspace's documents and bytes stored start exact. One ADD per month (a transaction may
   * touch an item once), in the same transaction as the documents it counts.
   */
  private usageOf(batch: Item[], workspaceId: string): TransactItem[] {
    const months = new Map<string, { documents_uploaded: number; bytes_uploaded: number }>();
    for (const item of batch) {
      if (!String(item['pk']).startsWith('DOC#') || item['sk'] !== 'META') continue;
      const month = monthOf(String(item['created_at']));
      const sum = months.get(month) ?? { documents_uploaded: 0, bytes_uploaded: 0 };
      sum.documents_uploaded += 1;
      sum.bytes_uploaded += Number(item['size'] ?? 0);
      months.set(month, sum);
    }
    const table = { tableName: this.tableName, keys: dataKeys(workspaceId) };
    return [...months].map(([month, move]) => usageMove(table, month, move));
  }

  private move(item: Item, workspaceId: string): TransactItem[] {
    return [
      { Put: { TableName: this.tableName, Item: adoptedItem(item, workspaceId) } },
      { Delete: { TableName: this.tableName, Key: { pk: item['pk'], sk: item['sk'] } } },
    ];
  }
}
