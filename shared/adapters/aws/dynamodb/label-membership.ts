import { TransactGetCommand, type DynamoDBDocumentClient, type TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { WorkspaceTable } from './keys';
import { createHash } from 'node:crypto';
import { batchGetAll, queryAll } from './queries';

export type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

/** A sharded label's partitions (`LABEL#<id>#<n>`): a popular label's writes spread over them. */
export const LABEL_SHARDS = 16;

/**
 * Where a label keeps its count and memberships. `sharded` (every label created now): 16 partitions, each with a
 * `COUNT` item (its documents; its existence stands for the label's) and the memberships of the documents hashed
 * to it, so that no item is written by every labelled upload. `single` (labels created before): the count on the
 * label's record and every membership in its partition. `moving`: a single label being migrated to shards
 * (label-shard-migration.ts): joins go to the shards, the memberships not moved yet are still counted on the
 * record. A layout only ever changes single → moving → sharded.
 */
export type LabelLayout = 'single' | 'moving' | 'sharded';

/** The attribute of a label's record that names a sharded label (how many shards). */
export const LABEL_SHARDS_ATTRIBUTE = 'label_shards';

/** The attribute of a label's record that says its memberships are being moved to its shards. */
export const LABEL_MIGRATION_ATTRIBUTE = 'label_migration';
export const LABEL_MOVING = 'moving';

/** The shard of a document in any sharded label: fixed, so that taking the label off needs no read. */
export const labelShardOf = (documentId: string): number => createHash('sha1').update(documentId).digest()[0]! % LABEL_SHARDS;

const countKey = ({ keys }: WorkspaceTable, labelId: string, documentId: string, layout: LabelLayout) =>
  layout !== 'single' ? keys.labelShardCount(labelId, labelShardOf(documentId)) : keys.label(labelId);
const memberKey = ({ keys }: WorkspaceTable, labelId: string, documentId: string, layout: LabelLayout) =>
  layout !== 'single' ? keys.labelShardMember(labelId, labelShardOf(documentId), documentId) : keys.labelMember(labelId, documentId);

/**
 * The two writes that put a document in a label: the membership item and the count, on condition that the
 * label exists (its record, or for a sharded label the shard's `COUNT` item, which a label delete removes first).
 * Every writer of memberships (document create/update, label assign) uses these, so the count can only move
 * together with a membership. A join of a `single` label also requires that the record names no shards: once
 * its migration started, a writer that remembered the old layout fails here (see {@link layoutsChanged}).
 */
export const joinLabel = (table: WorkspaceTable, labelId: string, documentId: string, layout: LabelLayout): TransactItem[] => [
  {
    Update: {
      TableName: table.tableName,
      Key: countKey(table, labelId, documentId, layout),
      UpdateExpression: 'ADD document_count :one',
      ConditionExpression: layout === 'single' ? `attribute_exists(pk) AND attribute_not_exists(${LABEL_SHARDS_ATTRIBUTE})` : 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':one': 1 },
    },
  },
  { Put: { TableName: table.tableName, Item: { ...memberKey(table, labelId, documentId, layout), document_id: documentId } } },
];

/**
 * The reverse of {@link joinLabel}. The membership must exist: when a label delete has already taken the label
 * off the document, the condition fails and the caller re-reads the document. A label that is gone has no
 * count to move (an ADD would bring its item back): then only the membership goes, and unconditionally (in
 * either layout's place: the record that named the layout is gone), as the label delete that is taking the label
 * off its documents may have removed it already. `layout` here is where the membership is ({@link leavePlaces}):
 * `single` in the record's partition, counted on the record, even while the label is moving.
 */
export const leaveLabel = (table: WorkspaceTable, labelId: string, documentId: string, labelGone: boolean, layout: LabelLayout): TransactItem[] =>
  labelGone
    ? (['single', 'sharded'] as const).map((either) => ({ Delete: { TableName: table.tableName, Key: memberKey(table, labelId, documentId, either) } }))
    : [
        {
          Update: {
            TableName: table.tableName,
            Key: countKey(table, labelId, documentId, layout),
            UpdateExpression: 'ADD document_count :minus',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':minus': -1 },
          },
        },
        {
          Delete: {
            TableName: table.tableName,
            Key: memberKey(table, labelId, documentId, layout),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
      ];

/** The membership item of a document in a label. */
export const labelMembership = memberKey;

/** The `COUNT` items of a sharded label, made with it. */
export const labelShardItems = ({ tableName, keys }: WorkspaceTable, labelId: string): TransactItem[] =>
  Array.from({ length: LABEL_SHARDS }, (_, shard) => ({
    Put: { TableName: tableName, Item: { ...keys.labelShardCount(labelId, shard), label_id: labelId, document_count: 0 }, ConditionExpression: 'attribute_not_exists(pk)' },
  }));

/** Deletes of a sharded label's `COUNT` items: after them, no write can add a member. */
export const labelShardDeletes = ({ tableName, keys }: WorkspaceTable, labelId: string): TransactItem[] =>
  Array.from({ length: LABEL_SHARDS }, (_, shard) => ({ Delete: { TableName: tableName, Key: keys.labelShardCount(labelId, shard) } }));

/** Keys of shard counts read by one chain of BatchGets (several chains run at once). */
const COUNT_KEYS_AT_ONCE = 400;

/** Each sharded label's document count: the sum of its shards' counts (16 keys a label, read at once). */
export async function shardedCounts(db: DynamoDBDocumentClient, { tableName, keys }: WorkspaceTable, labelIds: string[], consistent = false): Promise<Map<string, number>> {
  const counts = new Map<string, number>(labelIds.map((id) => [id, 0]));
  if (!labelIds.length) return counts;
  const shardKeys = labelIds.flatMap((id) => Array.from({ length: LABEL_SHARDS }, (_, shard) => keys.labelShardCount(id, shard)));
  // A request reads 100 keys (six labels and a part): a list of many labels reads its requests a few at once.
  const chunks: (typeof shardKeys)[] = [];
  for (let start = 0; start < shardKeys.length; start += COUNT_KEYS_AT_ONCE) chunks.push(shardKeys.slice(start, start + COUNT_KEYS_AT_ONCE));
  for (const items of await Promise.all(chunks.map((chunk) => batchGetAll(db, tableName, chunk, 'label_id, document_count', consistent)))) {
    for (const item of items) counts.set(String(item['label_id']), (counts.get(String(item['label_id'])) ?? 0) + Number(item['document_count'] ?? 0));
  }
  return counts;
}

/**
 * Each moving label's document count: its record's (memberships not moved yet) and its shards', read in one
 * snapshot, since a membership moved between two reads would be counted twice or not at all.
 */
export async function movingCounts(db: DynamoDBDocumentClient, { tableName, keys }: WorkspaceTable, labelIds: string[]): Promise<Map<string, number>> {
  const counts = await Promise.all(
    labelIds.map(async (id) => {
      const itemKeys = [keys.label(id), ...Array.from({ length: LABEL_SHARDS }, (_, shard) => keys.labelShardCount(id, shard))];
      const { Responses } = await db.send(
        new TransactGetCommand({ TransactItems: itemKeys.map((Key) => ({ Get: { TableName: tableName, Key, ProjectionExpression: 'document_count' } })) }),
      );
      return [id, (Responses ?? []).reduce((sum, response) => sum + Number(response.Item?.['document_count'] ?? 0), 0)] as const;
    }),
  );
  return new Map(counts);
}

/**
 * Layouts already read. `sharded` never changes; `single` may (a migration), which a join remembering it learns
 * from its failed condition: {@link layoutsChanged} forgets it then. `moving` is never remembered.
 */
const knownLayouts = new Map<string, LabelLayout>();
const KNOWN_LAYOUTS_MAX = 100_000;
const cacheKeyOf = ({ tableName, keys }: WorkspaceTable, id: string) => `${tableName}\u0000${keys.label(id).pk}`;

/**
 * The layout of each label (from its record; remembered once read). A label without a record is taken as
 * sharded: a join of it fails on the missing shard count as it would on the missing record.
 */
export async function labelLayouts(db: DynamoDBDocumentClient, table: WorkspaceTable, labelIds: string[]): Promise<Map<string, LabelLayout>> {
  const unique = [...new Set(labelIds)];
  const unknown = unique.filter((id) => !knownLayouts.has(cacheKeyOf(table, id)));
  if (!unknown.length) return new Map(unique.map((id) => [id, knownLayouts.get(cacheKeyOf(table, id))!]));
  const found = await batchGetAll(db, table.tableName, unknown.map((id) => table.keys.label(id)), `id, ${LABEL_SHARDS_ATTRIBUTE}, ${LABEL_MIGRATION_ATTRIBUTE}`, true);
  const read = new Map(found.map((item) => [String(item['id']), layoutOfRecord(item)]));
  if (knownLayouts.size > KNOWN_LAYOUTS_MAX) knownLayouts.clear();
  // Only what a record says is remembered: a label not found yet may be one being created.
  for (const [id, layout] of read) if (layout !== 'moving') knownLayouts.set(cacheKeyOf(table, id), layout);
  return new Map(unique.map((id) => [id, knownLayouts.get(cacheKeyOf(table, id)) ?? read.get(id) ?? 'sharded']));
}

/**
 * After a join's count condition failed: forgets what was remembered of those labels and reads them again. The
 * labels answered existed all along with another layout than the one the join used (it is to be written again);
 * the others are gone.
 */
export async function layoutsChanged(db: DynamoDBDocumentClient, table: WorkspaceTable, used: Map<string, LabelLayout>, labelIds: string[]): Promise<string[]> {
  for (const id of labelIds) knownLayouts.delete(cacheKeyOf(table, id));
  if (!labelIds.length) return [];
  const found = await batchGetAll(db, table.tableName, labelIds.map((id) => table.keys.label(id)), `id, ${LABEL_SHARDS_ATTRIBUTE}, ${LABEL_MIGRATION_ATTRIBUTE}`, true);
  const joinsTo = (layout: LabelLayout | undefined) => (layout === 'single' ? 'record' : 'shards');
  return found.filter((item) => joinsTo(layoutOfRecord(item)) !== joinsTo(used.get(String(item['id'])))).map((item) => String(item['id']));
}

/**
 * Where a document's membership of each label is, for a leave: a sharded label's in its shard; a single or
 * moving label's in the record's partition while it is there (read, strongly consistent), else in its shard
 * (moved by the migration). Moved after this read, the leave fails on the membership and is tried again.
 */
export async function leavePlaces(db: DynamoDBDocumentClient, table: WorkspaceTable, documentId: string, layouts: Map<string, LabelLayout>): Promise<Map<string, LabelLayout>> {
  const unsharded = [...layouts].filter(([, layout]) => layout !== 'sharded').map(([id]) => id);
  const places = new Map(layouts);
  if (!unsharded.length) return places;
  const found = await batchGetAll(db, table.tableName, unsharded.map((id) => table.keys.labelMember(id, documentId)), 'pk', true);
  const inRecord = new Set(found.map((item) => String(item['pk'])));
  for (const id of unsharded) places.set(id, inRecord.has(table.keys.labelMember(id, documentId).pk) ? 'single' : 'sharded');
  return places;
}

/** The layout a label's record names. */
export const layoutOfRecord = (item: Record<string, unknown>): LabelLayout =>
  item[LABEL_SHARDS_ATTRIBUTE] === undefined ? 'single' : item[LABEL_MIGRATION_ATTRIBUTE] === LABEL_MOVING ? 'moving' : 'sharded';

/** Which label's count a transaction item of {@link joinLabel} or {@link leaveLabel} moves, if any. */
export const countedLabel = (item: TransactItem | undefined): string | null => {
  const key = item?.Update?.Key as { pk?: unknown; sk?: unknown } | undefined;
  if (typeof key?.pk !== 'string') return null;
  const labelId = key.sk === 'META' ? /#LABEL#([^#]+)$/.exec(key.pk)?.[1] : key.sk === 'COUNT' ? /#LABEL#([^#]+)#\d+$/.exec(key.pk)?.[1] : undefined;
  return labelId ?? null;
};

/**
 * Ids of the documents carrying a label, from its membership items (a sharded label's 16 partitions at once).
 * Strongly consistent by default: a label delete or rename must see every membership written before it, or it
 * would leave that document behind. A label not known to be sharded may be migrating: its record's partition is
 * read first, then its shards, so that a membership moved meanwhile is found in one or the other.
 */
export async function currentLabelMembers(db: DynamoDBDocumentClient, { tableName, keys }: WorkspaceTable, labelId: string, layout: LabelLayout, consistent = true): Promise<string[]> {
  const query = (pk: string) =>
    queryAll(db, {
      TableName: tableName,
      KeyConditionExpression: 'pk = :label AND begins_with(sk, :doc)',
      ExpressionAttributeValues: { ':label': pk, ':doc': 'DOC#' },
      ConsistentRead: consistent,
    });
  const inRecord = layout === 'sharded' ? [] : await query(keys.label(labelId).pk);
  const inShards = await Promise.all(Array.from({ length: LABEL_SHARDS }, (_, shard) => query(keys.labelShardCount(labelId, shard).pk)));
  return [...new Set([...inRecord, ...inShards.flat()].map((item) => item['document_id'] as string))];
}
