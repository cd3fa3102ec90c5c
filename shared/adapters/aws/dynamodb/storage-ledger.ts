import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Limit } from '../../../domain/quotas/plans';
import { quotaExceeded } from '../../../domain/quotas/quota-errors';
import { AppError } from '../../../domain/errors';
import { failedConditions, isConditionFailure, isTransactionConflict } from './errors';
import { allShards, COUNTER_SHARDS, randomShard } from './hot-counters';
import type { Clock } from '../../../domain/clock';
import { monthOf } from '../../../domain/usage/usage';
import type { DataKeys } from './keys';
import type { TransactItem } from './label-membership';
import { batchGetAll } from './queries';
import { DynamoUsageRepository } from './usage-repository';

type Item = Record<string, unknown>;

/** The storage limits of a workspace's plan. */
export interface StorageLimits {
  documents: Limit;
  bytes: Limit;
}

/** What a change stores (positive) or frees (negative). */
export interface StorageMove {
  documents: number;
  bytes: number;
}

/** A refusal: which quota, its limit and what is used of it. */
export interface StorageRefusal {
  quota: 'documents_stored' | 'bytes_stored';
  limit: number;
  used: number;
}

const DIMENSIONS = [
  { name: 'documents', quota: 'documents_stored', used: 'used_docs', free: 'free_docs', granted: 'granted_docs', base: 'base_docs' },
  { name: 'bytes', quota: 'bytes_stored', used: 'used_bytes', free: 'free_bytes', granted: 'granted_bytes', base: 'base_bytes' },
] as const;

const num = (item: Item | undefined, name: string): number => Number(item?.[name] ?? 0);

/** The limits a ledger's grants were made under, as stamped on the pool and each shard. */
export const epochOf = (limits: StorageLimits): string => `${limits.documents}|${limits.bytes}`;

/** Makes refills at most this many rounds before the caller's transaction is tried again anyway. */
const REFILL_ROUNDS = 8;

/** Sends of one change's transaction, each on a shard of its own, before it gives up (busy shards, a moving pool). */
const SEND_ATTEMPTS = 40;

/** Unlimited: what a workspace whose plan sets no storage limit is held to. */
export const NO_STORAGE_LIMITS: StorageLimits = { documents: 'unlimited', bytes: 'unlimited' };

/**
 * The ledger of one workspace, whose first pool takes what the workspace's usage of the clock's month says is stored:
 * the one every writer of stored bytes (documents, their searchable PDFs) moves.
 */
export function workspaceStorageLedger(db: DynamoDBDocumentClient, tableName: string, workspaceId: string, keys: Pick<DataKeys, 'storageShard' | 'storagePool'>, clock: Clock): StorageLedger {
  const usage = new DynamoUsageRepository(db, tableName);
  return new StorageLedger(db, tableName, keys, async () => {
    const now = await usage.month(workspaceId, monthOf(clock.now()));
    return { documents: now.documents_stored, bytes: now.bytes_stored };
  });
}

/**
 * What a workspace stores (documents, bytes), exactly and within its plan, with no item written by every upload.
 *
 * Each of {@link COUNTER_SHARDS} shards (`WS#<ws>#STORAGE#<n> / LEDGER`, partitions of their own) holds what the
 * changes written to it stored (`used_*`, deletes subtract) and the room it may still use (`free_*`). An upload
 * adds to one shard, picked at random, in its own transaction, on the condition that the shard's room holds it
 * (no arithmetic in conditions: the room is kept as a number). The pool (`WS#<ws>#STORAGE / POOL`) holds what the
 * shards were granted in all (`granted_*`) and what was stored before the ledger (`base_*`). Every write keeps
 * `Σ (used + free) = granted`, so what is stored, `base + Σ used`, never passes `base + granted`, and a grant
 * never lets `base + granted` pass the limit: the limit holds exactly, however many uploads run at once.
 *
 * A shard out of room is granted a block from the pool (a share of what is left, never less than the upload
 * needs). When the pool has too little, every shard's unused room is swept back first, so an upload is refused
 * only when the workspace as a whole has no room for it. Grants are stamped with the limits they were made
 * under (`epoch`): a change of plan sweeps every shard and grants again under the new limits. A limit that is
 * `unlimited` adds without condition (the room goes negative; a sweep evens it out).
 */
export class StorageLedger {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly keys: Pick<DataKeys, 'storageShard' | 'storagePool'>,
    /** What the workspace's usage says is stored now (where a new ledger's base comes from). */
    private readonly storedByUsage: () => Promise<StorageMove>,
  ) {}

  /**
   * The transaction item that moves `move` on `shard`: under finite limits an addition holds only within the
   * shard's room (and the current epoch); a release always holds.
   */
  moveItem(shard: number, move: StorageMove, limits: StorageLimits): TransactItem {
    const bounded = DIMENSIONS.filter((d) => limits[d.name] !== 'unlimited' && move[d.name] > 0);
    const values: Record<string, unknown> = { ':d': move.documents, ':b': move.bytes, ':nd': -move.documents, ':nb': -move.bytes };
    const conditions = bounded.map((d) => `${d.free} >= :${d.name === 'documents' ? 'd' : 'b'}`);
    if (bounded.length) {
      conditions.unshift('epoch = :epoch');
      values[':epoch'] = epochOf(limits);
    }
    return {
      Update: {
        TableName: this.tableName,
        Key: this.keys.storageShard(shard),
        UpdateExpression: 'ADD used_docs :d, used_bytes :b, free_docs :nd, free_bytes :nb',
        ...(conditions.length ? { ConditionExpression: conditions.join(' AND ') } : {}),
        ExpressionAttributeValues: values,
      },
    };
  }

  /**
   * Sends the transaction of a change that stores `move` (`build` puts the ledger's item in it at `ledgerIndex`) on a
   * shard picked at random. While that shard's room refuses it, makes room and sends again (on another shard);
   * when the workspace has no room, throws 403 `quota_exceeded` naming the quota. A transaction that lost a race
   * on a busy shard is sent again; any other failure is the caller's (rethrown as it is).
   */
  async transact(move: StorageMove, limits: StorageLimits, build: (ledgerItem: TransactItem) => { items: TransactItem[]; ledgerIndex: number }): Promise<void> {
    let shard = randomShard();
    // Room granted to a shard is used there: an upload that moved on would leave it to the next sweep, and an
    // upload refused meanwhile would be refused with room left.
    let granted = false;
    for (let attempt = 1; attempt <= SEND_ATTEMPTS; attempt++) {
      if (attempt > 1 && !granted) shard = randomShard();
      const { items, ledgerIndex } = build(this.moveItem(shard, move, limits));
      try {
        await this.db.send(new TransactWriteCommand({ TransactItems: items }));
        return;
      } catch (error) {
        const failed = failedConditions(error);
        if (failed?.length === 1 && failed[0] === ledgerIndex) {
          const room = await this.makeRoom(shard, move, limits);
          if (room !== 'retry') throw quotaExceeded(room.quota, room.limit, room.used);
          granted = true;
        } else if (!isTransactionConflict(error) || failed?.length) {
          throw error;
        }
        if (attempt > 3) await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * Math.min(attempt, 10)));
      }
    }
    // Never the caller's own failure (a label gone, a version moved): those were rethrown above.
    throw new AppError('SERVICE_UNAVAILABLE', 'The workspace is storing too much at once; try again', { reason: 'storage_busy' });
  }

  /**
   * After `shard`'s room refused `move`: grants it room from the pool (sweeping the other shards' unused room
   * back first when the pool is short). `retry` when the move may now hold (or another writer changed things
   * meanwhile); a refusal when the workspace as a whole has no room for it.
   */
  async makeRoom(shard: number, move: StorageMove, limits: StorageLimits): Promise<'retry' | StorageRefusal> {
    const epoch = epochOf(limits);
    let swept = false;
    for (let round = 0; round < REFILL_ROUNDS; round++) {
      const pool = (await this.get(this.keys.storagePool)) ?? (await this.createPool());
      if (pool['epoch'] !== epoch) {
        await this.sweep(epoch);
        swept = true;
        continue;
      }
      const current = (await this.get(this.keys.storageShard(shard))) ?? {};
      const grants: Record<string, number> = {};
      let short = false;
      for (const d of DIMENSIONS) {
        const limit = limits[d.name];
        if (limit === 'unlimited' || move[d.name] <= 0) continue;
        const free = current['epoch'] === epoch ? num(current, d.free) : 0;
        const lack = move[d.name] - free;
        if (lack <= 0) continue;
        const left = limit - num(pool, d.base) - num(pool, d.granted);
        if (left < lack) {
          // Refused only once every shard's unused room is back in the pool.
          // `used`: what is stored and what uploads under way were granted (after the sweep, the shards' free room
          // is zero but for theirs), so that `used + this upload > limit` always reads true.
          if (swept) return { quota: d.quota, limit, used: num(pool, d.base) + num(pool, d.granted) };
          short = true;
          break;
        }
        // A share of what is left, so that the pool is written about once per share, not once per upload.
        grants[d.name] = Math.min(left, Math.max(lack, Math.ceil(left / (2 * COUNTER_SHARDS))));
      }
      if (short) {
        await this.sweep(epoch);
        swept = true;
        continue;
      }
      if (!Object.keys(grants).length) return 'retry';
      if (await this.grant(shard, pool, grants, epoch)) return 'retry';
    }
    return 'retry';
  }

  /** How many documents the ledger counts (what its shards stored): the listings' total beside the older counter. */
  async documents(): Promise<number> {
    // One round trip: the listing reads this with every page.
    const shards = await batchGetAll(this.db, this.tableName, allShards().map((shard) => this.keys.storageShard(shard)), 'used_docs');
    return shards.reduce((sum, item) => sum + num(item, 'used_docs'), 0);
  }

  /** Moves room from the pool to the shard, if the pool is still as read (else another writer won: read again). */
  private async grant(shard: number, pool: Item, grants: Record<string, number>, epoch: string): Promise<boolean> {
    const g = (name: string) => grants[name] ?? 0;
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.tableName,
                Key: this.keys.storagePool,
                UpdateExpression: 'ADD granted_docs :gd, granted_bytes :gb',
                ConditionExpression: 'granted_docs = :seenD AND granted_bytes = :seenB AND epoch = :epoch',
                ExpressionAttributeValues: { ':gd': g('documents'), ':gb': g('bytes'), ':seenD': num(pool, 'granted_docs'), ':seenB': num(pool, 'granted_bytes'), ':epoch': epoch },
              },
            },
            {
              Update: {
                TableName: this.tableName,
                Key: this.keys.storageShard(shard),
                UpdateExpression: 'SET epoch = :epoch ADD free_docs :gd, free_bytes :gb',
                ConditionExpression: 'attribute_not_exists(epoch) OR epoch = :epoch',
                ExpressionAttributeValues: { ':gd': g('documents'), ':gb': g('bytes'), ':epoch': epoch },
              },
            },
          ],
        }),
      );
      return true;
    } catch (error) {
      if (failedConditions(error)?.length || isTransactionConflict(error)) return false;
      throw error;
    }
  }

  /**
   * Takes every shard's unused room back into the pool (a negative room, left by unlimited adds, is taken up the
   * same way) and stamps shards and pool with `epoch`: afterwards `granted = Σ used` exactly.
   */
  private async sweep(epoch: string): Promise<void> {
    await Promise.all(allShards().map((shard) => this.sweepShard(shard, epoch)));
    await this.db.send(new UpdateCommand({ TableName: this.tableName, Key: this.keys.storagePool, UpdateExpression: 'SET epoch = :epoch', ExpressionAttributeValues: { ':epoch': epoch } }));
  }

  private async sweepShard(shard: number, epoch: string): Promise<void> {
    {
      for (let round = 0; round < REFILL_ROUNDS; round++) {
        const item = await this.get(this.keys.storageShard(shard));
        const fd = num(item, 'free_docs');
        const fb = num(item, 'free_bytes');
        if (item && fd === 0 && fb === 0 && item['epoch'] === epoch) break;
        const seen = (name: string, placeholder: string) =>
          item?.[name] === undefined ? `attribute_not_exists(${name})` : `${name} = ${placeholder}`;
        try {
          await this.db.send(
            new TransactWriteCommand({
              TransactItems: [
                {
                  Update: {
                    TableName: this.tableName,
                    Key: this.keys.storageShard(shard),
                    UpdateExpression: 'SET epoch = :epoch ADD free_docs :nd, free_bytes :nb',
                    ConditionExpression: `${seen('free_docs', ':fd')} AND ${seen('free_bytes', ':fb')}`,
                    ExpressionAttributeValues: {
                      ':epoch': epoch,
                      ':nd': -fd,
                      ':nb': -fb,
                      ...(item?.['free_docs'] === undefined ? {} : { ':fd': fd }),
                      ...(item?.['free_bytes'] === undefined ? {} : { ':fb': fb }),
                    },
                  },
                },
                {
                  Update: {
                    TableName: this.tableName,
                    Key: this.keys.storagePool,
                    UpdateExpression: 'ADD granted_docs :nd, granted_bytes :nb',
                    ConditionExpression: 'attribute_exists(pk)',
                    ExpressionAttributeValues: { ':nd': -fd, ':nb': -fb },
                  },
                },
              ],
            }),
          );
          break;
        } catch (error) {
          if (!(failedConditions(error)?.length || isTransactionConflict(error))) throw error;
        }
      }
    }
  }

  /**
   * The pool of a workspace whose ledger has none yet: its base is what the usage says is stored less what the
   * shards stored (read twice around the usage, so that the three reads agree), and it has granted what the
   * shards hold (`Σ (used + free)`, zero unless a pool existed before).
   */
  private async createPool(): Promise<Item> {
    for (let round = 0; round < REFILL_ROUNDS; round++) {
      const before = await this.shardTotals();
      const stored = await this.storedByUsage();
      const after = await this.shardTotals();
      if (JSON.stringify(before) !== JSON.stringify(after)) continue;
      const pool = {
        ...this.keys.storagePool,
        base_docs: stored.documents - before.used_docs,
        base_bytes: stored.bytes - before.used_bytes,
        granted_docs: before.used_docs + before.free_docs,
        granted_bytes: before.used_bytes + before.free_bytes,
        epoch: 'none',
      };
      try {
        await this.db.send(new PutCommand({ TableName: this.tableName, Item: pool, ConditionExpression: 'attribute_not_exists(pk)' }));
        return pool;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        return (await this.get(this.keys.storagePool))!;
      }
    }
    throw new Error('The storage ledger could not be started: its shards kept changing');
  }

  private async shardTotals() {
    const shards = await Promise.all(allShards().map((shard) => this.get(this.keys.storageShard(shard))));
    const total = { used_docs: 0, used_bytes: 0, free_docs: 0, free_bytes: 0 };
    for (const item of shards) for (const name of Object.keys(total) as (keyof typeof total)[]) total[name] += num(item, name);
    return total;
  }

  private async get(key: { pk: string; sk: string }): Promise<Item | undefined> {
    return (await this.db.send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }))).Item;
  }
}
