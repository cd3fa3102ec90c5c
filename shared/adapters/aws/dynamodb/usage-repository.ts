import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { MeteredRequests, UsageMeter, UsageRepository } from '../../../domain/usage/ports';
import { noUsage, type UsageCounters } from '../../../domain/usage/usage';
import { dataKeys, type WorkspaceTable } from './keys';
import type { TransactItem } from './label-membership';
import { queryAll } from './queries';
import { allShards, randomShard } from './hot-counters';

type Item = Record<string, unknown>;

/**
 * Pages are top-level attributes (`pages_<engine>`): ADD cannot create a key inside a missing map. An engine's
 * name is kept to lower-case letters, digits and underscores, so that it reads back as it was written.
 */
const PAGES_PREFIX = 'pages_';
const engineAttribute = (engine: string): string => `${PAGES_PREFIX}${engine.toLowerCase().replace(/[^a-z0-9_]/g, '_') || 'unknown'}`;

/** What a month item holds: the changes of the month, never a total (totals are sums over the months). */
export interface UsageMove {
  documents_uploaded?: number;
  documents_deleted?: number;
  bytes_uploaded?: number;
  bytes_deleted?: number;
  search_requests?: number;
  api_requests?: number;
  /** Pages read, by engine. */
  pages?: Record<string, number>;
}

/**
 * The write that adds `move` to the workspace's usage of `month` (one shard of it, at random:
 * `WS#<ws>#USAGE#<shard> / <YYYY-MM>`), to put in the transaction of the change it counts: the counter moves if
 * and only if the change is stored.
 */
export function usageMove({ tableName, keys }: WorkspaceTable, month: string, move: UsageMove, shard = randomShard()): TransactItem {
  return { Update: updateOf(tableName, keys.usageShard(shard, month), move) };
}

function updateOf(tableName: string, key: { pk: string; sk: string }, move: UsageMove) {
  const { pages = {}, ...counts } = move;
  const fields = [
    ...Object.entries(counts).filter((entry): entry is [string, number] => typeof entry[1] === 'number'),
    ...Object.entries(pages).map(([engine, count]) => [engineAttribute(engine), count] as [string, number]),
  ];
  if (!fields.length) throw new Error('a usage move needs at least one counter');
  return {
    TableName: tableName,
    Key: key,
    UpdateExpression: `ADD ${fields.map((_, i) => `#u${i} :u${i}`).join(', ')}`,
    ExpressionAttributeNames: Object.fromEntries(fields.map(([name], i) => [`#u${i}`, name])),
    ExpressionAttributeValues: Object.fromEntries(fields.map(([, value], i) => [`:u${i}`, value])),
  };
}

const numberOf = (item: Item, name: string): number => Number(item[name] ?? 0);

/** The items of one month's shards added up into one (every counter is a number), or undefined for none. */
function sumOf(items: Item[]): Item | undefined {
  if (!items.length) return undefined;
  const sum: Record<string, number> = {};
  for (const item of items) {
    for (const [name, value] of Object.entries(item)) if (typeof value === 'number') sum[name] = (sum[name] ?? 0) + value;
  }
  return sum;
}

/**
 * The usage counters in the application table: per workspace and month, one item in each of the shards'
 * partitions (`WS#<ws>#USAGE#<shard> / <YYYY-MM>`, see hot-counters.ts) holding that month's changes, summed on
 * read with what the unsharded item (`WS#<ws>#USAGE`, written before the shards) holds. Documents and bytes move in the document repository's create and delete
 * transactions, pages in the OCR job's completion transaction ({@link usageMove}), requests through
 * {@link DynamoUsageRepository.add}. What was stored at a month's end is the sum of the months up to it, read in
 * one query of the workspace's usage partition.
 */
export class DynamoUsageRepository implements UsageRepository, UsageMeter {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly random: () => number = Math.random,
  ) {}

  async month(workspaceId: string, month: string): Promise<UsageCounters> {
    const keys = dataKeys(workspaceId);
    // The unsharded partition (counts written before the shards) and every shard's, at once.
    const partitions = [keys.usageMonth(month).pk, ...allShards().map((shard) => keys.usageShard(shard, month).pk)];
    const items = (
      await Promise.all(
        partitions.map((pk) =>
          queryAll(this.db, {
            TableName: this.tableName,
            KeyConditionExpression: 'pk = :usage AND sk <= :month',
            ExpressionAttributeValues: { ':usage': pk, ':month': month },
            ConsistentRead: true,
          }),
        ),
      )
    ).flat();
    const usage = noUsage();
    for (const item of items) {
      usage.documents_stored += numberOf(item, 'documents_uploaded') - numberOf(item, 'documents_deleted');
      usage.bytes_stored += numberOf(item, 'bytes_uploaded') - numberOf(item, 'bytes_deleted');
    }
    const current = sumOf(items.filter((item) => item['sk'] === month));
    if (!current) return usage;
    const byEngine = Object.fromEntries(
      Object.entries(current)
        .filter(([name]) => name.startsWith(PAGES_PREFIX))
        .map(([name, value]) => [name.slice(PAGES_PREFIX.length), Number(value)]),
    );
    return {
      ...usage,
      documents_uploaded: numberOf(current, 'documents_uploaded'),
      documents_deleted: numberOf(current, 'documents_deleted'),
      bytes_uploaded: numberOf(current, 'bytes_uploaded'),
      bytes_deleted: numberOf(current, 'bytes_deleted'),
      pages_ocred: Object.values(byEngine).reduce((sum, pages) => sum + pages, 0),
      pages_ocred_by_engine: byEngine,
      search_requests: numberOf(current, 'search_requests'),
      api_requests: numberOf(current, 'api_requests'),
    };
  }

  /** One ADD of the counts to a shard picked at random (no transaction: nothing else changes with a request count). */
  async add(workspaceId: string, month: string, counts: MeteredRequests): Promise<void> {
    const move = Object.fromEntries(Object.entries(counts).filter(([, value]) => typeof value === 'number' && value !== 0));
    if (!Object.keys(move).length) return;
    await this.db.send(new UpdateCommand(updateOf(this.tableName, dataKeys(workspaceId).usageShard(randomShard(this.random), month), move)));
  }
}
