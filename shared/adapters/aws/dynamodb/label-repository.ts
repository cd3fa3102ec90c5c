import { DeleteCommand, GetCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { duplicate } from '../../../domain/errors';
import type { AssignmentOutcome, Label, LabelChanges } from '../../../domain/labels/label';
import type { LabelRepository } from '../../../domain/labels/ports';
import { failedConditions, isConditionFailure } from './errors';
import { dataKeys, withoutKeys, type DataKeys, type WorkspaceTable } from './keys';
import {
  currentLabelMembers,
  joinLabel,
  LABEL_MIGRATION_ATTRIBUTE,
  LABEL_MOVING,
  LABEL_SHARDS,
  LABEL_SHARDS_ATTRIBUTE,
  labelMembership,
  labelShardDeletes,
  labelShardItems,
  layoutOfRecord,
  movingCounts,
  shardedCounts,
  type LabelLayout,
} from './label-membership';
import { batchGetAll, indexPartition } from './queries';
import { LOST_RACE, retryLostRaces } from '../../../domain/optimistic-retry';

/** How many documents are labelled at once during an assign or a label delete. */
const CONCURRENCY = 8;

type Item = Record<string, unknown>;

/**
 * A label's record as the domain sees it: its count from its shards when sharded (and, while it moves to them,
 * with those on its record not moved yet: `counts` holds the sum), no keys, no layout.
 */
const toLabel = (item: Item, counts: Map<string, number>): Label => {
  const { [LABEL_SHARDS_ATTRIBUTE]: _shards, [LABEL_MIGRATION_ATTRIBUTE]: _moving, ...label } = withoutKeys<Label & Item>(item);
  return layoutOfRecord(item) === 'single' ? (label as Label) : { ...(label as Label), document_count: counts.get(label.id) ?? 0 };
};

/**
 * Labels in the application table (`LABEL#id / META`, listed by name through gsi1), a lock item per name for
 * case-insensitive uniqueness, and the membership items shared with DynamoDocumentRepository. A label created
 * now is sharded (label-membership.ts): its record holds no count, which its 16 shards' `COUNT` items hold.
 */
export class DynamoLabelRepository implements LabelRepository {
  /** The workspace's keys: every item this repository reads or writes is the workspace's. */
  private readonly keys: DataKeys;
  private readonly table: WorkspaceTable;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    workspaceId: string,
  ) {
    this.table = { tableName, keys: dataKeys(workspaceId) };
    this.keys = this.table.keys;
  }

  async create(label: Label): Promise<void> {
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.tableName,
                // The count lives in the shards (created with it, at zero: a new label has no documents).
                Item: { ...this.keys.label(label.id), ...this.indexOf(label), ...withoutCount(label), [LABEL_SHARDS_ATTRIBUTE]: LABEL_SHARDS },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              Put: {
                TableName: this.tableName,
                Item: { ...this.keys.labelNameLock(label.name), label_id: label.id },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            ...labelShardItems(this.table, label.id),
          ],
        }),
      );
    } catch (error) {
      if (failedConditions(error)?.includes(1)) throw duplicate('label', 'name');
      throw error;
    }
  }

  async get(id: string): Promise<Label | null> {
    // Strongly consistent: the search indexer reads names here right after a rename.
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: this.keys.label(id), ConsistentRead: true }));
    if (!Item) return null;
    return toLabel(Item, await this.counts(id, layoutOfRecord(Item)));
  }

  /** The count of a label not in the single layout (whose record holds it). */
  private async counts(id: string, layout: LabelLayout): Promise<Map<string, number>> {
    if (layout === 'single') return new Map();
    return layout === 'moving' ? movingCounts(this.db, this.table, [id]) : shardedCounts(this.db, this.table, [id], true);
  }

  async list(): Promise<Label[]> {
    const items = await indexPartition(this.db, this.tableName, this.keys.labelsIndex);
    const withLayout = (layout: LabelLayout) => items.filter((item) => layoutOfRecord(item) === layout).map((item) => String(item['id']));
    const [sharded, moving] = await Promise.all([shardedCounts(this.db, this.table, withLayout('sharded')), movingCounts(this.db, this.table, withLayout('moving'))]);
    const counts = new Map([...sharded, ...moving]);
    return items.map((item) => toLabel(item, counts));
  }

  /** The label's record and layout, strongly consistent. */
  private async record(id: string): Promise<{ label: Label; layout: LabelLayout } | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: this.keys.label(id), ConsistentRead: true }));
    return Item ? { label: toLabel(Item, new Map()), layout: layoutOfRecord(Item) } : null;
  }

  async missing(ids: string[]): Promise<string[]> {
    const unique = [...new Set(ids)];
    const found = await batchGetAll(this.db, this.tableName, unique.map((id) => this.keys.label(id)), 'id');
    const existing = new Set(found.map((item) => item['id'] as string));
    return unique.filter((id) => !existing.has(id));
  }

  async update(id: string, changes: LabelChanges, updatedAt: string): Promise<Label | null> {
    const current = await this.record(id);
    if (!current) return null;
    const written = await this.write(current, changes, updatedAt);
    if (!written) return null;
    const { previous } = written;
    // A sharded label's record holds no count: the answer carries its shards' sum.
    const next = written.layout !== 'single' ? { ...written.next, document_count: (await this.counts(id, written.layout)).get(id) ?? 0 } : written.next;
    if (next.name === previous.name) return next;
    // The name is part of what the index holds of each carrier, but no version of theirs: move their versions
    // now that the new name is stored, so that an index copy read with the old name can never win over it.
    const members = await currentLabelMembers(this.db, this.table, id, current.layout);
    await inBatches(members, CONCURRENCY, (documentId) => this.touch(id, documentId));
    return next;
  }

  /** Writes the changes over `current`, retrying on fresh data; answers the label as replaced and as written. */
  private async write(
    current: { label: Label; layout: LabelLayout },
    changes: LabelChanges,
    updatedAt: string,
  ): Promise<{ previous: Label; next: Label; layout: LabelLayout } | null> {
    const id = current.label.id;
    let conflict: unknown;
    return retryLostRaces<{ previous: Label; next: Label; layout: LabelLayout } | null>(
      async (attempt) => {
        // Each attempt starts from the label as it is now (the first from the one the caller read): assignments
        // moved an old label's count meanwhile.
        const read = attempt === 1 ? current : await this.record(id);
        if (!read) return null;
        const fresh = read.label;
        const next: Label = {
          ...fresh,
          ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)),
          updated_at: updatedAt,
        };
        const renamed = next.name.toLowerCase() !== fresh.name.toLowerCase();
        const write =
          read.layout === 'sharded'
            ? {
                // The record holds no count (the shards do): no race with assignments.
                Put: {
                  TableName: this.tableName,
                  Item: { ...this.keys.label(id), ...this.indexOf(next), ...withoutCount(next), [LABEL_SHARDS_ATTRIBUTE]: LABEL_SHARDS },
                  ConditionExpression: 'attribute_exists(pk)',
                },
              }
            : read.layout === 'moving'
              ? this.movingWrite(next)
              : {
                  Put: {
                    TableName: this.tableName,
                    Item: { ...this.keys.label(id), ...this.indexOf(next), ...next, document_count: read.label.document_count },
                    // document_count moves with assignments: write over it only if it is what was read, and only
                    // while the label has the old layout (a migration that started meanwhile marked the record).
                    ConditionExpression: `attribute_exists(pk) AND document_count = :count AND attribute_not_exists(${LABEL_SHARDS_ATTRIBUTE})`,
                    ExpressionAttributeValues: { ':count': read.label.document_count },
                  },
                };
        try {
          await this.db.send(
            new TransactWriteCommand({
              TransactItems: renamed
                ? [
                    write,
                    { Delete: { TableName: this.tableName, Key: this.keys.labelNameLock(fresh.name) } },
                    {
                      Put: {
                        TableName: this.tableName,
                        Item: { ...this.keys.labelNameLock(next.name), label_id: id },
                        ConditionExpression: 'attribute_not_exists(pk)',
                      },
                    },
                  ]
                : [write],
            }),
          );
          return { previous: fresh, next, layout: read.layout };
        } catch (error) {
          const failed = failedConditions(error);
          if (failed?.includes(2)) throw duplicate('label', 'name');
          // The count moved while we wrote (or the label went): try again on fresh data.
          if (!failed?.includes(0)) throw error;
          conflict = error;
          return LOST_RACE;
        }
      },
      () => {
        throw conflict;
      },
    );
  }

  /**
   * The write of a label whose memberships are moving to its shards: the fields set in place, so that the count the
   * migration moves is not written over, on condition that it is still moving (else read again: it is sharded).
   */
  private movingWrite(next: Label) {
    const fields = Object.entries({ ...this.indexOf(next), ...withoutCount(next) }).filter(([field]) => field !== 'id');
    return {
      Update: {
        TableName: this.tableName,
        Key: this.keys.label(next.id),
        UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :f${i}`).join(', ')}`,
        ConditionExpression: `${LABEL_MIGRATION_ATTRIBUTE} = :moving`,
        ExpressionAttributeNames: Object.fromEntries(fields.map(([field], i) => [`#f${i}`, field])),
        ExpressionAttributeValues: { ...Object.fromEntries(fields.map(([, value], i) => [`:f${i}`, value])), ':moving': LABEL_MOVING },
      },
    };
  }

  async delete(id: string): Promise<boolean> {
    const found = await this.record(id);
    if (!found) return false;
    const { label, layout } = found;
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Delete: { TableName: this.tableName, Key: this.keys.label(id), ConditionExpression: 'attribute_exists(pk)' } },
            { Delete: { TableName: this.tableName, Key: this.keys.labelNameLock(label.name) } },
            // A sharded label's joins are conditioned on its shards' counts: gone with the record, in one step (an
            // old label's too: a migration may have made them since the record was read).
            ...labelShardDeletes(this.table, id),
          ],
        }),
      );
    } catch (error) {
      if (failedConditions(error)?.length) return false;
      throw error;
    }
    // The label is gone, so no write can add members any more (joinLabel's condition): the memberships read now
    // are every document that carries it, including those an edit or assign racing this delete labelled.
    const members = await currentLabelMembers(this.db, this.table, id, layout);
    await inBatches(members, CONCURRENCY, (documentId) => this.unlabel(id, documentId, layout));
    return true;
  }

  async assign(id: string, documentIds: string[], updatedAt: string): Promise<AssignmentOutcome | null> {
    const found = await this.record(id);
    if (!found) return null;
    const outcome: AssignmentOutcome = { assigned: [], already_assigned: [], not_found: [] };
    let labelGone = false;
    let layout = found.layout;
    await inBatches(documentIds, CONCURRENCY, async (documentId) => {
      const used = layout;
      let result = await this.label(id, documentId, updatedAt, used);
      // An old label's migration started meanwhile (its record refuses joins in the old layout): join its shards.
      if (result === 'label_gone' && used === 'single') {
        const now = await this.record(id);
        if (now && now.layout !== 'single') {
          layout = now.layout;
          result = await this.label(id, documentId, updatedAt, layout);
        }
      }
      if (result === 'label_gone') labelGone = true;
      else outcome[result].push(documentId);
    });
    return labelGone ? null : outcome;
  }

  private indexOf(label: Label) {
    return { gsi1pk: this.keys.labelsIndex, gsi1sk: `${label.name.toLowerCase()}#${label.id}` };
  }

  /** Adds the label to one document, counting it once. */
  private async label(labelId: string, documentId: string, updatedAt: string, layout: LabelLayout): Promise<keyof AssignmentOutcome | 'label_gone'> {
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.tableName,
                Key: this.keys.document(documentId),
                UpdateExpression: 'ADD labels :label, version :one SET updated_at = :now',
                ConditionExpression: 'attribute_exists(pk) AND NOT contains(labels, :id)',
                ExpressionAttributeValues: { ':label': new Set([labelId]), ':id': labelId, ':one': 1, ':now': updatedAt },
              },
            },
            ...joinLabel(this.table, labelId, documentId, layout),
          ],
        }),
      );
      return 'assigned';
    } catch (error) {
      const failed = failedConditions(error);
      if (!failed?.length) throw error;
      if (failed.includes(1)) return 'label_gone';
      const { Item } = await this.db.send(
        new GetCommand({ TableName: this.tableName, Key: this.keys.document(documentId), ProjectionExpression: 'id' }),
      );
      return Item ? 'already_assigned' : 'not_found';
    }
  }

  /** Moves the version of a document that still carries the label; nothing when it no longer does (or is gone). */
  private async touch(labelId: string, documentId: string): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.keys.document(documentId),
          UpdateExpression: 'ADD version :one',
          ConditionExpression: 'attribute_exists(pk) AND contains(labels, :id)',
          ExpressionAttributeValues: { ':one': 1, ':id': labelId },
        }),
      );
    } catch (error) {
      // Whoever took the label off (or deleted the document) moved its version: the index follows that change.
      if (isConditionFailure(error)) return;
      throw error;
    }
  }

  /**
   * Takes a deleted label off one document; a document deleted meanwhile needs nothing more. An old label's
   * membership may be in its record's partition or, moved by a migration, in its shard: both places are cleared.
   */
  private async unlabel(labelId: string, documentId: string, layout: LabelLayout): Promise<void> {
    const places: LabelLayout[] = layout === 'sharded' ? ['sharded'] : ['single', 'sharded'];
    const memberships = places.map((place) => ({ TableName: this.tableName, Key: labelMembership(this.table, labelId, documentId, place) }));
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.tableName,
                Key: this.keys.document(documentId),
                UpdateExpression: 'DELETE labels :label ADD version :one',
                ConditionExpression: 'attribute_exists(pk)',
                ExpressionAttributeValues: { ':label': new Set([labelId]), ':one': 1 },
              },
            },
            ...memberships.map((membership) => ({ Delete: membership })),
          ],
        }),
      );
    } catch (error) {
      if (!failedConditions(error)?.length) throw error;
      await Promise.all(memberships.map((membership) => this.db.send(new DeleteCommand(membership))));
    }
  }
}

async function inBatches<T>(items: T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let start = 0; start < items.length; start += size) {
    await Promise.all(items.slice(start, start + size).map(work));
  }
}

/** A label without its count, as a sharded label's record holds it. */
const withoutCount = ({ document_count: _count, ...label }: Label): Omit<Label, 'document_count'> => label;
