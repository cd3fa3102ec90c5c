import { GetCommand, PutCommand, ScanCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { LegacyDataAdopter } from '../../../domain/workspaces/ports';
import { failedConditions, isConditionFailure, isTransactionConflict } from './errors';
import { dataKeys, type WorkspaceTable } from './keys';
import { LABEL_MIGRATION_ATTRIBUTE, LABEL_MOVING, LABEL_SHARDS, LABEL_SHARDS_ATTRIBUTE, labelShardOf, layoutOfRecord, type LabelLayout } from './label-membership';
import { queryAll } from './queries';

type Item = Record<string, unknown>;

/** Written when every label of the table is sharded: later starts skip the Scan. */
const MIGRATION_DONE = { pk: 'MIGRATION#label-shards', sk: 'DONE' };

/** Memberships moved at once: each move writes the label's record, which takes about 1,000 writes a second. */
const MOVES_AT_ONCE = 8;

/** A label's record key in any workspace: `WS#<workspace>#LABEL#<id>` (keys.ts). */
const LABEL_RECORD_PK = /^WS#(.+)#LABEL#([^#]+)$/;

/** How a label's migration ended. */
export type LabelMigrationOutcome = 'migrated' | 'already_sharded' | 'gone';

/**
 * Moves every label of the table still in the single layout (label-membership.ts) to the sharded one, each with
 * {@link migrateLabel}: one Scan of the labels' records at start or deploy, skipped once a marker says it ran to
 * its end (labels created since are sharded). A run cut short leaves labels `moving`, which work as they are and
 * are finished by the next run. Runs with the legacy-data adoption (a {@link LegacyDataAdopter}, after the items'
 * adoption so that it finds the labels it moved); the workspace it is given does not matter: every workspace's
 * labels are migrated. Returns how many labels it migrated.
 */
export class DynamoLabelShardMigration implements LegacyDataAdopter {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async adopt(): Promise<number> {
    const { Item: done } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: MIGRATION_DONE, ConsistentRead: true }));
    if (done) return 0;
    let migrated = 0;
    for (const { workspaceId, labelId } of await this.unshardedLabels()) {
      if ((await migrateLabel(this.db, { tableName: this.tableName, keys: dataKeys(workspaceId) }, labelId)) === 'migrated') migrated += 1;
    }
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: { ...MIGRATION_DONE, migrated } }));
    return migrated;
  }

  /** Every label record without shards, or still moving. */
  private async unshardedLabels(): Promise<{ workspaceId: string; labelId: string }[]> {
    const found: { workspaceId: string; labelId: string }[] = [];
    let start: Item | undefined;
    do {
      const page = await this.db.send(
        new ScanCommand({
          TableName: this.tableName,
          FilterExpression: `sk = :meta AND contains(pk, :label) AND (attribute_not_exists(${LABEL_SHARDS_ATTRIBUTE}) OR attribute_exists(${LABEL_MIGRATION_ATTRIBUTE}))`,
          ExpressionAttributeValues: { ':meta': 'META', ':label': '#LABEL#' },
          ProjectionExpression: 'pk',
          ConsistentRead: true,
          ExclusiveStartKey: start,
        }),
      );
      for (const item of page.Items ?? []) {
        const match = LABEL_RECORD_PK.exec(String(item['pk']));
        if (match) found.push({ workspaceId: match[1]!, labelId: match[2]! });
      }
      start = page.LastEvaluatedKey;
    } while (start);
    return found;
  }
}

/**
 * Moves one label to the sharded layout while documents keep joining and leaving it, without losing or counting
 * twice a membership. Idempotent; a run cut short at any point is finished by the next.
 *
 * 1. **Start** (one transaction): the record is marked `moving` (and names its shards), on condition that it names
 *    none yet, and its 16 `COUNT` items are made (kept if there). From then on a join remembering the old layout
 *    fails its condition and joins the shards instead; joins and leaves of moved or new members go to the shards.
 * 2. **Move** each membership left in the record's partition, one small transaction each: delete it (on condition
 *    that it is still there: a leave may have taken it), put it in its shard, move its count from the record
 *    (on condition that the label is still moving: not deleted) to the shard's `COUNT`.
 * 3. **Finish**: the record's mark and count removed, on condition that the count is zero, which it is exactly
 *    when no membership is left in its partition (the count moves with each one, and nothing joins there any
 *    more), or that the last read of the partition found none (a count that drifted from its memberships
 *    before). Otherwise back to 2.
 */
export async function migrateLabel(db: DynamoDBDocumentClient, table: WorkspaceTable, labelId: string): Promise<LabelMigrationOutcome> {
  const started = await start(db, table, labelId);
  if (started !== 'moving') return started;
  for (;;) {
    const members = await queryAll(db, {
      TableName: table.tableName,
      KeyConditionExpression: 'pk = :label AND begins_with(sk, :doc)',
      ExpressionAttributeValues: { ':label': table.keys.label(labelId).pk, ':doc': 'DOC#' },
      ConsistentRead: true,
    });
    for (let first = 0; first < members.length; first += MOVES_AT_ONCE) {
      const moved = await Promise.all(members.slice(first, first + MOVES_AT_ONCE).map((member) => move(db, table, labelId, String(member['document_id']))));
      if (moved.includes('gone')) return 'gone';
    }
    // None left to move: whatever count the record still holds counts nothing (no join writes there any more).
    const finished = await finish(db, table, labelId, members.length === 0);
    if (finished !== 'moving') return finished;
  }
}

async function recordLayout(db: DynamoDBDocumentClient, table: WorkspaceTable, labelId: string): Promise<LabelLayout | null> {
  const { Item } = await db.send(new GetCommand({ TableName: table.tableName, Key: table.keys.label(labelId), ConsistentRead: true }));
  return Item ? layoutOfRecord(Item) : null;
}

const settled = (layout: LabelLayout | null): LabelMigrationOutcome | 'moving' | 'single' =>
  layout === null ? 'gone' : layout === 'sharded' ? 'already_sharded' : layout;

async function start(db: DynamoDBDocumentClient, table: WorkspaceTable, labelId: string): Promise<LabelMigrationOutcome | 'moving'> {
  for (;;) {
    const layout = settled(await recordLayout(db, table, labelId));
    if (layout !== 'single') return layout;
    try {
      await db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: table.tableName,
                Key: table.keys.label(labelId),
                UpdateExpression: `SET ${LABEL_SHARDS_ATTRIBUTE} = :shards, ${LABEL_MIGRATION_ATTRIBUTE} = :moving, document_count = if_not_exists(document_count, :zero)`,
                ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(${LABEL_SHARDS_ATTRIBUTE})`,
                ExpressionAttributeValues: { ':shards': LABEL_SHARDS, ':moving': LABEL_MOVING, ':zero': 0 },
              },
            },
            ...Array.from({ length: LABEL_SHARDS }, (_, shard) => ({
              Update: {
                TableName: table.tableName,
                Key: table.keys.labelShardCount(labelId, shard),
                UpdateExpression: 'SET label_id = :id, document_count = if_not_exists(document_count, :zero)',
                ExpressionAttributeValues: { ':id': labelId, ':zero': 0 },
              },
            })),
          ],
        }),
      );
      return 'moving';
    } catch (error) {
      // Deleted, or started by another run meanwhile: read where it stands.
      if (!failedConditions(error)?.length && !isTransactionConflict(error)) throw error;
    }
  }
}

/** Moves one membership from the record's partition to its shard; `gone` when the label was deleted meanwhile. */
async function move(db: DynamoDBDocumentClient, table: WorkspaceTable, labelId: string, documentId: string): Promise<'moved' | 'left' | 'gone'> {
  const { tableName, keys } = table;
  const shard = labelShardOf(documentId);
  for (;;) {
    try {
      await db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Delete: { TableName: tableName, Key: keys.labelMember(labelId, documentId), ConditionExpression: 'attribute_exists(pk)' } },
            {
              Update: {
                TableName: tableName,
                Key: keys.label(labelId),
                UpdateExpression: 'ADD document_count :minus',
                ConditionExpression: `${LABEL_MIGRATION_ATTRIBUTE} = :moving`,
                ExpressionAttributeValues: { ':minus': -1, ':moving': LABEL_MOVING },
              },
            },
            {
              Update: {
                TableName: tableName,
                Key: keys.labelShardCount(labelId, shard),
                UpdateExpression: 'ADD document_count :one',
                ConditionExpression: 'attribute_exists(pk)',
                ExpressionAttributeValues: { ':one': 1 },
              },
            },
            { Put: { TableName: tableName, Item: { ...keys.labelShardMember(labelId, shard, documentId), document_id: documentId }, ConditionExpression: 'attribute_not_exists(pk)' } },
          ],
        }),
      );
      return 'moved';
    } catch (error) {
      const failed = failedConditions(error);
      if (failed?.includes(1) || failed?.includes(2)) return 'gone';
      // Taken off by a leave (or moved by another run) meanwhile: nothing to move.
      if (failed?.includes(0)) return 'left';
      // Already in its shard (a membership never sits in both; a run's own earlier move): only the copy goes.
      if (failed?.includes(3)) return dropCopy(db, table, labelId, documentId);
      if (!isTransactionConflict(error)) throw error;
    }
  }
}

/** Removes a membership left in the record's partition whose shard holds it already, with its count. */
async function dropCopy(db: DynamoDBDocumentClient, table: WorkspaceTable, labelId: string, documentId: string): Promise<'left' | 'gone'> {
  try {
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: table.tableName, Key: table.keys.labelMember(labelId, documentId), ConditionExpression: 'attribute_exists(pk)' } },
          {
            Update: {
              TableName: table.tableName,
              Key: table.keys.label(labelId),
              UpdateExpression: 'ADD document_count :minus',
              ConditionExpression: `${LABEL_MIGRATION_ATTRIBUTE} = :moving`,
              ExpressionAttributeValues: { ':minus': -1, ':moving': LABEL_MOVING },
            },
          },
        ],
      }),
    );
    return 'left';
  } catch (error) {
    const failed = failedConditions(error);
    if (failed?.includes(1)) return 'gone';
    if (failed?.length || isTransactionConflict(error)) return 'left';
    throw error;
  }
}

async function finish(db: DynamoDBDocumentClient, table: WorkspaceTable, labelId: string, noneLeft: boolean): Promise<LabelMigrationOutcome | 'moving'> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: table.keys.label(labelId),
        UpdateExpression: `REMOVE ${LABEL_MIGRATION_ATTRIBUTE}, document_count`,
        ConditionExpression: `${LABEL_MIGRATION_ATTRIBUTE} = :moving` + (noneLeft ? '' : ' AND document_count = :zero'),
        ExpressionAttributeValues: { ':moving': LABEL_MOVING, ...(noneLeft ? {} : { ':zero': 0 }) },
      }),
    );
    return 'migrated';
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const layout = settled(await recordLayout(db, table, labelId));
    // Still moving: a membership was left in the record's partition (a move lost to a conflict): another pass.
    return layout === 'single' ? 'moving' : layout;
  }
}
