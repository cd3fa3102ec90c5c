import { ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ScanCheckpoint, WorkspaceTableEraser } from '../../../domain/erasure/ports';
import { dataKeys, keys } from './keys';
import { batchWriteAll, indexPartition, queryAll } from './queries';
import { workspaceKeys } from './workspace-keys';

type Item = Record<string, unknown>;
type Key = { pk: string; sk: string };

/** Parallel segments of the table's scan: the erasure reads the whole table once per pass. */
const SCAN_SEGMENTS = 4;

/**
 * What stays of an erased workspace: its usage rows (billing), under `WS#<id>#USAGE` and any partition that
 * starts so (sharded counters included).
 */
export const keptPartitionPrefix = (workspaceId: string): string => `WS#${workspaceId}#USAGE`;

const keyOf = (item: Item): Key => ({ pk: item['pk'] as string, sk: item['sk'] as string });

/**
 * The table's part of a workspace's erasure (keys.ts, workspace-keys.ts). Its data lives under `WS#<id>#`
 * partitions, which one scan of the table finds whatever their kind (a directory a sync remembered, a label's
 * member, a delivery), so that a kind added later cannot be forgotten here; its members' items (`USER#<id>`,
 * their name, e-mail and identity locks and rate buckets), tokens (`APITOKEN#…`) and connections (`CONN#…`) are
 * found from its gsi1 partitions. Deletes go 25 a request; every pass deletes what is left, so it is idempotent.
 */
export class DynamoWorkspaceTableEraser implements WorkspaceTableEraser {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    /** Items a scan page reads at most (DynamoDB's own bound, 1 MB, when not given): a page is the unit of a checkpoint. */
    private readonly scanPageItems?: number,
  ) {}

  async eraseAutomation(workspaceId: string): Promise<number> {
    const data = dataKeys(workspaceId);
    const items = [...(await this.partition(data.webhooksPartition)), ...(await this.partition(data.rulesPartition))];
    return this.remove(items.map(keyOf));
  }

  async eraseItems(workspaceId: string, checkpoint?: ScanCheckpoint): Promise<number> {
    let removed = await this.eraseMembers(workspaceId);
    removed += await this.remove((await indexPartition(this.db, this.tableName, keys.apiTokensIndex(workspaceId))).map(keyOf));
    removed += await this.remove((await indexPartition(this.db, this.tableName, keys.connectionsIndex(workspaceId))).map(keyOf));
    return removed + (await this.eraseWorkspacePartitions(workspaceId, checkpoint));
  }

  async eraseWorkspaceRecord(workspaceId: string): Promise<number> {
    const { pk } = workspaceKeys.workspace(workspaceId);
    return this.remove((await this.partitionKeys(pk)).filter((key) => key.sk !== workspaceKeys.workspace(workspaceId).sk));
  }

  /** Each member's partition (profile, settings, notifications, counters), locks and rate buckets. */
  private async eraseMembers(workspaceId: string): Promise<number> {
    let removed = 0;
    for (const user of await indexPartition(this.db, this.tableName, workspaceKeys.membersIndex(workspaceId))) {
      const id = user['id'] as string;
      const username = String(user['username'] ?? '');
      const locks: Key[] = [
        ...(username ? [keys.usernameLock(username), keys.rateLimit(`login#${username.toLowerCase()}`)] : []),
        ...(typeof user['email'] === 'string' && user['email'] ? [keys.emailLock(user['email'])] : []),
        ...(typeof user['identity_lock'] === 'string' ? [{ pk: user['identity_lock'], sk: 'LOCK' }] : []),
        keys.rateLimit(`user#${id}`),
        keys.rateLimit(`upload#${id}`),
      ];
      // The profile last: while it stays, a pass cut short finds the member again.
      const partition = (await this.partitionKeys(keys.user(id).pk)).filter((key) => key.sk !== 'PROFILE');
      removed += await this.remove([...locks, ...partition]);
      removed += await this.remove([keys.user(id)]);
    }
    return removed;
  }

  /**
   * Every item whose partition key is the workspace's, but its usage rows. With a checkpoint, each segment starts
   * where it was saved (a finished one is not read again; the removed count goes on from the saved one) and saves
   * its position after removing each page's items, so a resumed erasure does not read the table again from its start.
   */
  private async eraseWorkspacePartitions(workspaceId: string, checkpoint?: ScanCheckpoint): Promise<number> {
    const counts = await Promise.all(
      Array.from({ length: SCAN_SEGMENTS }, async (_, segment) => {
        const saved = checkpoint?.saved[segment];
        if (saved?.done) return saved.removed;
        let removed = saved?.removed ?? 0;
        let cursor: Item | undefined = saved?.after ?? undefined;
        do {
          const page = await this.db.send(
            new ScanCommand({
              TableName: this.tableName,
              Segment: segment,
              TotalSegments: SCAN_SEGMENTS,
              ProjectionExpression: 'pk, sk',
              FilterExpression: 'begins_with(pk, :ws) AND NOT begins_with(pk, :kept)',
              ExpressionAttributeValues: { ':ws': `WS#${workspaceId}#`, ':kept': keptPartitionPrefix(workspaceId) },
              ExclusiveStartKey: cursor,
              ...(this.scanPageItems ? { Limit: this.scanPageItems } : {}),
            }),
          );
          removed += await this.remove((page.Items ?? []).map(keyOf));
          cursor = page.LastEvaluatedKey;
          // Saved once the page's items are gone: a crash before the save reads the page again, finding less.
          await checkpoint?.save(segment, { after: cursor ?? null, done: !cursor, removed });
        } while (cursor);
        return removed;
      }),
    );
    return counts.reduce((a, b) => a + b, 0);
  }

  private partition(pk: string): Promise<Item[]> {
    return queryAll(this.db, { TableName: this.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } });
  }

  private async partitionKeys(pk: string): Promise<Key[]> {
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      ProjectionExpression: 'pk, sk',
      ExpressionAttributeValues: { ':pk': pk },
    });
    return items.map(keyOf);
  }

  /** Deletes the keys (a key without an item costs a write and changes nothing); returns how many keys it was given. */
  private async remove(itemKeys: Key[]): Promise<number> {
    const unique = [...new Map(itemKeys.map((key) => [`${key.pk}\u0000${key.sk}`, key])).values()];
    await batchWriteAll(this.db, this.tableName, unique.map((key) => ({ delete: key })));
    return unique.length;
  }
}
