/**
 * The shards of a workspace's hot counters: its usage of a month (every request, upload, delete and OCR run adds
 * to it) and its storage ledger (every upload and delete). One DynamoDB partition takes about 1,000 writes a
 * second, and a transaction's write counts twice; with 16 shards, each in a partition of its own and picked at
 * random per write, one workspace's 5,000 requests and 500 uploads a second put about 400 writes a second on
 * each (docs/hot-counters.md has the numbers). Reads sum the shards.
 */
export const COUNTER_SHARDS = 16;

/** A shard picked at random: writers spread evenly without coordinating. */
export const randomShard = (random: () => number = Math.random): number => Math.min(COUNTER_SHARDS - 1, Math.floor(random() * COUNTER_SHARDS));

/** Every shard's number, for the reads that sum them. */
export const allShards = (): number[] => Array.from({ length: COUNTER_SHARDS }, (_, i) => i);
