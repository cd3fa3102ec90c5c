import type { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
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
 * label's record and every membership in its partition. A label's layout never changes.
 */
export type LabelLayout = 'single' | 'sharded';

/** The attribute of a label's record that names a sharded label (how many shards). */
export const LABEL_SHARDS_ATTRIBUTE = 'label_shards';

/** The shard of a document in any sharded label: fixed, so that taking the label off needs no read. */
export const labelShardOf = (documentId: string): number => createHash('sha1').update(documentId).digest()[0]! % LABEL_SHARDS;

const countKey = ({ keys }: WorkspaceTable, labelId: string, documentId: string, layout: LabelLayout) =>
  layout === 'sharded' ? keys.labelShardCount(labelId, labelShardOf(documentId)) : keys.label(labelId);
const memberKey = ({ keys }: WorkspaceTable, labelId: string, documentId: string, layout: LabelLayout) =>
  layout === 'sharded' ? keys.labelShardMember(labelId, labelShardOf(documentId), documentId) : keys.labelMember(labelId, documentId);

/**
 * The two writes that put a document in a label: the membership item and the count, on condition that the
 * label exists (its record, or for a sharded label the shard's `COUNT` item, which a label delete removes first).
 * Every writer of memberships (document create/update, label assign) uses these, so the count can only move
 * together with a membership.
 */
export const joinLabel = (table: WorkspaceTable, labelId: string, documentId: string, layout: LabelLayout): TransactItem[] => [
  {
    Update: {
      TableName: table.tableName,
      Key: countKey(table, labelId, documentId, layout),
      UpdateExpression: 'ADD document_count :one',
      ConditionExpression: 'attribute_exists(pk)',
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
 * off its documents may have removed it already.
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

/** Layouts already read: a label's never changes (a label created now is sharded; its id is never reused). */
const knownLayouts = new Map<string, LabelLayout>();
const KNOWN_LAYOUTS_MAX = 100_000;

/**
 * The layout of each label (from its record; remembered once read). A label without a record is taken as
 * sharded: a join of it fails on the missing shard count as it would on the missing record.
 */
export async function labelLayouts(db: DynamoDBDocumentClient, { tableName, keys }: WorkspaceTable, labelIds: string[]): Promise<Map<string, LabelLayout>> {
  const unique = [...new Set(labelIds)];
  const cacheKey = (id: string) => `${tableName}\u0000${keys.label(id).pk}`;
  const unknown = unique.filter((id) => !knownLayouts.has(cacheKey(id)));
  if (unknown.length) {
    const found = await batchGetAll(db, tableName, unknown.map((id) => keys.label(id)), `id, ${LABEL_SHARDS_ATTRIBUTE}`);
    const single = new Set(found.filter((item) => item[LABEL_SHARDS_ATTRIBUTE] === undefined).map((item) => String(item['id'])));
    const existing = new Set(found.map((item) => String(item['id'])));
    if (knownLayouts.size > KNOWN_LAYOUTS_MAX) knownLayouts.clear();
    // Only what a record says is remembered: a label not found yet may be one being created.
    for (const id of unknown) if (existing.has(id)) knownLayouts.set(cacheKey(id), single.has(id) ? 'single' : 'sharded');
    return new Map(unique.map((id) => [id, knownLayouts.get(cacheKey(id)) ?? (single.has(id) ? 'single' : 'sharded')]));
  }
  return new Map(unique.map((id) => [id, knownLayouts.get(cacheKey(id))!]));
}

/** The layout a label's record names. */
export const layoutOfRecord = (item: Record<string, unknown>): LabelLayout => (item[LABEL_SHARDS_ATTRIBUTE] === undefined ? 'single' : 'sharded');

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
 * would leave that document behind.
 */
export async function currentLabelMembers(db: DynamoDBDocumentClient, { tableName, keys }: WorkspaceTable, labelId: string, layout: LabelLayout, consistent = true): Promise<string[]> {
  const partitions = layout === 'sharded' ? Array.from({ length: LABEL_SHARDS }, (_, shard) => keys.labelShardCount(labelId, shard).pk) : [keys.label(labelId).pk];
  const found = await Promise.all(
    partitions.map((pk) =>
      queryAll(db, {
        TableName: tableName,
        KeyConditionExpression: 'pk = :label AND begins_with(sk, :doc)',
        ExpressionAttributeValues: { ':label': pk, ':doc': 'DOC#' },
        ConsistentRead: consistent,
      }),
    ),
  );
  return found.flat().map((item) => item['document_id'] as string);
}
