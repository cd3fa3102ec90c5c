/**
 * Hot counters (issue 37): can one workspace take 5,000 API requests and 500 uploads a second without any DynamoDB
 * partition key passing 1,000 writes a second, with billing exact and the storage quota exact at its edge?
 *
 *   npx tsx bench/hot-counters.ts            (or: npm run bench:hot-counters)
 *   npx tsx bench/hot-counters.ts --quick    a short run: a smoke test of the bench itself
 *
 * Results: bench/results/hot-counters.json (hot-counters.quick.json for --quick).
 *
 * No AWS account is at hand, so the design is simulated on DynamoDB Local (in memory, started here): the real
 * repositories are driven as the services drive them, one request = one `DynamoUsageRepository.add` of
 * `api_requests` (what every authenticated request does; the local runtime's write-behind meter would coalesce
 * them, the cloud's functions do not), one upload = one `DynamoDocumentRepository.create` under a finite storage
 * quota (the document, its hash item, a usage shard, a storage-ledger shard and, as every upload carries one
 * popular label, that label's count and membership on one of its shards, in one transaction, plus the ledger's
 * grants from its pool). Each DynamoDB call passes an SDK middleware that counts, after it succeeded,
 * the writes per partition key per second: a Put, Update or Delete is one, each item of a transaction two (a
 * transaction writes twice), as DynamoDB counts them against a partition's 1,000 writes a second.
 *
 * This machine cannot send 5,000 requests a second (DynamoDB Local, on two shared cores, answers a few hundred to
 * a few thousand): the bench runs request and upload workers side by side as fast as they go, measures the rate
 * each class reached, and scales each key's writes per second by class to the target rates (a key's writes grow
 * linearly with the rate, as every write picks its shard at random). The hottest key at the target rate is the
 * largest scaled count of any key in any one-second window. The run then checks that the workspace's billed
 * `api_requests`, `documents_uploaded` and `bytes_uploaded` equal what was sent, and a second phase races uploads
 * against a small bytes quota and checks that what is stored ends exactly at the limit.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDynamoDocumentClient } from '../shared/adapters/aws/clients';
import { DynamoDocumentRepository } from '../shared/adapters/aws/dynamodb/document-repository';
import { DynamoLabelRepository } from '../shared/adapters/aws/dynamodb/label-repository';
import { COUNTER_SHARDS } from '../shared/adapters/aws/dynamodb/hot-counters';
import { ensureTable } from '../shared/adapters/aws/provisioning';
import { DynamoUsageRepository } from '../shared/adapters/aws/dynamodb/usage-repository';
import type { StorageLimits } from '../shared/adapters/aws/dynamodb/storage-ledger';
import { AppError } from '../shared/domain/errors';
import { monthOf } from '../shared/domain/usage/usage';
import { localClientOptions } from '../shared/local/local-clients';
import { startDynamoDbLocal } from '../shared/local/emulators/dynamodb-local';
import { aDocumentRecord } from '../test/support/builders';
import { QUICK } from './support/runtime-bench';
import { round } from './support/stats';

const TARGET = { requests: 5000, uploads: 500 };
const KEY_LIMIT = 1000;
const SECONDS = QUICK ? 8 : 60;
const WARMUP_SECONDS = QUICK ? 3 : 10;
/** Calls in flight per class: enough to keep DynamoDB Local busy, in the ratio of the target rates. */
const IN_FLIGHT = { requests: 40, uploads: 8 };
const TABLE = 'hot-counters';
const WORKSPACE = '44444444-4444-4444-8444-444444444444';

type Klass = keyof typeof TARGET;

/** Writes per partition key per second, by the class of work that made them. */
class WriteCounter {
  /** `${second}\t${key}` → writes. */
  counts: Record<Klass, Map<string, number>> = { requests: new Map(), uploads: new Map() };

  constructor(private started: number) {}

  /** Forgets what was counted: the measurement starts at `now`. */
  reset(now: number): void {
    this.started = now;
    this.counts = { requests: new Map(), uploads: new Map() };
  }

  /** Counts the writes of each successful call of `db`, as `klass`. */
  instrument(db: DynamoDBDocumentClient, klass: Klass): void {
    db.middlewareStack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        const second = Math.floor((Date.now() - this.started) / 1000);
        for (const [key, writes] of writesOf(context.commandName ?? '', args.input as Record<string, unknown>)) {
          const id = `${second}\t${key}`;
          this.counts[klass].set(id, (this.counts[klass].get(id) ?? 0) + writes);
        }
        return result;
      },
      { step: 'initialize', name: 'countWritesPerKey' },
    );
  }
}

type Keyed = { Key?: { pk?: unknown }; Item?: { pk?: unknown; gsi1pk?: unknown } };

/** A put that lists its item in gsi1 writes the index's partition too (one write, however it was sent). */
const indexWrites = (entry: Keyed | undefined): [string, number][] => (entry?.Item?.gsi1pk === undefined ? [] : [[`gsi1 ${String(entry.Item.gsi1pk)}`, 1]]);

/** The partition keys a call writes and how many writes each costs. */
function writesOf(command: string, input: Record<string, unknown>): [string, number][] {
  const pk = (entry: Keyed | undefined) => String(entry?.Key?.pk ?? entry?.Item?.pk ?? '?');
  // The document client's middleware sees the low-level names, with the input not yet marshalled.
  if (['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand'].includes(command)) return [[pk(input as Keyed), 1], ...indexWrites(input as Keyed)];
  if (command === 'TransactWriteItemsCommand') {
    const items = (input['TransactItems'] ?? []) as Record<string, Keyed>[];
    return items.flatMap((item) => {
      const write = item['Put'] ?? item['Update'] ?? item['Delete'];
      return write ? [[pk(write), 2] as [string, number], ...indexWrites(item['Put'])] : [];
    });
  }
  if (command === 'BatchWriteItemCommand') {
    const tables = (input['RequestItems'] ?? {}) as Record<string, { PutRequest?: Keyed; DeleteRequest?: Keyed }[]>;
    return Object.values(tables).flatMap((requests) => requests.map((r) => [pk(r.PutRequest ?? r.DeleteRequest), 1] as [string, number]));
  }
  return [];
}

/** Runs `work` with `inFlight` calls at once until `until`; resolves with how many completed. */
async function drive(inFlight: number, until: number, work: () => Promise<void>): Promise<number> {
  let done = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (Date.now() < until) {
        await work();
        done++;
      }
    }),
  );
  return done;
}

async function main(): Promise<void> {
  const dynamodb = await startDynamoDbLocal();
  try {
    const options = localClientOptions(dynamodb.endpoint);
    const setup = createDynamoDocumentClient(options);
    await ensureTable(setup, TABLE);
    const month = monthOf(new Date());
    const started = Date.now();
    const counter = new WriteCounter(started);
    const clients = { requests: createDynamoDocumentClient(options), uploads: createDynamoDocumentClient(options) };
    counter.instrument(clients.requests, 'requests');
    counter.instrument(clients.uploads, 'uploads');
    // A storage quota far above what the run stores, but finite: every upload goes through the ledger's grants.
    const roomy: StorageLimits = { documents: 10_000_000, bytes: 1e15 };
    const usage = new DynamoUsageRepository(clients.requests, TABLE);
    const documents = new DynamoDocumentRepository(clients.uploads, TABLE, WORKSPACE, undefined, async () => roomy);
    // Every upload carries one label: the popular label a whole integration tags its documents with.
    const label = { id: crypto.randomUUID(), name: 'popular', color: '#112233', description: null, document_count: 0, created_by: 'bench', created_at: new Date().toISOString(), updated_at: new Date().toISOString() };
    await new DynamoLabelRepository(setup, TABLE, WORKSPACE).create(label);
    let bytesSent = 0;

    // Warm-up, not counted: the ledger's first grants (a sweep of every shard, then one block a shard) and the JIT.
    const requestOnce = () => usage.add(WORKSPACE, month, { api_requests: 1 });
    const uploadOnce = async () => {
      const size = 1000 + Math.floor(Math.random() * 100_000);
      await documents.create(aDocumentRecord({ id: crypto.randomUUID(), size, sha256: crypto.randomUUID(), labels: [label.id] }));
      bytesSent += size;
    };
    console.error('warming up...');
    const warm = Date.now() + WARMUP_SECONDS * 1000;
    const [warmRequests, warmUploads] = await Promise.all([drive(IN_FLIGHT.requests, warm, requestOnce), drive(IN_FLIGHT.uploads, warm, uploadOnce)]);
    counter.reset(Date.now());
    const measuring = Date.now();
    console.error(`driving requests and uploads for ${SECONDS} s...`);
    const until = measuring + SECONDS * 1000;
    const [requests, uploads] = await Promise.all([drive(IN_FLIGHT.requests, until, requestOnce), drive(IN_FLIGHT.uploads, until, uploadOnce)]);
    const elapsed = (Date.now() - measuring) / 1000;
    const rate = { requests: requests / elapsed, uploads: uploads / elapsed };
    const scale = { requests: TARGET.requests / rate.requests, uploads: TARGET.uploads / rate.uploads };

    // Each key's writes in each second, measured and scaled to the target rates.
    const windows = new Map<string, { requests: number; uploads: number }>();
    for (const klass of ['requests', 'uploads'] as const) {
      for (const [id, writes] of counter.counts[klass]) {
        const entry = windows.get(id) ?? { requests: 0, uploads: 0 };
        entry[klass] += writes;
        windows.set(id, entry);
      }
    }
    // The last second is partial: left out.
    const last = Math.floor(elapsed) - 1;
    const rows = [...windows]
      .map(([id, w]) => {
        const [second, key] = id.split('\t') as [string, string];
        return { second: Number(second), key, measured: w.requests + w.uploads, atTarget: w.requests * scale.requests + w.uploads * scale.uploads };
      })
      .filter((row) => row.second <= last);
    // Each key's mean rate over the run, scaled to the target: what it carries at 5,000 + 500 a second. A key's
    // writes in one second then vary as a Poisson count of its events (each one or two writes): a busy second is
    // about three standard deviations above the mean.
    const meanByKey = new Map<string, { requests: number; uploads: number }>();
    for (const [id, w] of windows) {
      const key = id.split('\t')[1]!;
      if (Number(id.split('\t')[0]) > last) continue;
      const entry = meanByKey.get(key) ?? { requests: 0, uploads: 0 };
      entry.requests += w.requests;
      entry.uploads += w.uploads;
      meanByKey.set(key, entry);
    }
    const seconds = last + 1;
    const expected = [...meanByKey].map(([key, w]) => {
      const rate = (w.requests * scale.requests + w.uploads * scale.uploads) / seconds;
      // Writes per event on the key: one for a request's ADD, two for a transaction's item (a label's shard takes
      // two items of an upload's transaction: its count and the membership).
      const perEvent = key.includes('#LABEL#') ? 4 : w.uploads > w.requests ? 2 : 1;
      return { key, rate, busySecond: rate + 3 * Math.sqrt(rate * perEvent) };
    });
    const hottestExpected = expected.reduce((a, b) => (b.busySecond > a.busySecond ? b : a));
    const hottest = rows.reduce((a, b) => (b.atTarget > a.atTarget ? b : a));
    const hottestMeasured = rows.reduce((a, b) => (b.measured > a.measured ? b : a));
    const byKind = (key: string) =>
      key.replaceAll(WORKSPACE, '<ws>').replace(/#DOC#.*$/, '#DOC#<id>').replace(/#DOCHASH#.*$/, '#DOCHASH#<sha>').replace(/#LABEL#[^#]+/, '#LABEL#<id>');

    const billed = await new DynamoUsageRepository(setup, TABLE).month(WORKSPACE, month);
    const billing = {
      api_requests: { sent: warmRequests + requests, billed: billed.api_requests },
      documents_uploaded: { sent: warmUploads + uploads, billed: billed.documents_uploaded },
      bytes_uploaded: { sent: bytesSent, billed: billed.bytes_uploaded },
    };

    // The quota's edge under a race: 60 uploads of 1,000 bytes at once against room for 25 of them.
    const edgeWorkspace = '55555555-5555-4555-8555-555555555555';
    const edgeLimits: StorageLimits = { documents: 'unlimited', bytes: 25_000 };
    const edgeDocuments = new DynamoDocumentRepository(setup, TABLE, edgeWorkspace, undefined, async () => edgeLimits);
    const edge = await Promise.all(
      Array.from({ length: 60 }, () =>
        edgeDocuments.create(aDocumentRecord({ id: crypto.randomUUID(), size: 1000 })).then(
          () => 'stored' as const,
          (error: unknown) => (error instanceof AppError && error.details['reason'] === 'quota_exceeded' ? ('refused' as const) : Promise.reject(error)),
        ),
      ),
    );
    const edgeUsage = await new DynamoUsageRepository(setup, TABLE).month(edgeWorkspace, month);

    const result = {
      date: new Date().toISOString(),
      quick: QUICK,
      shards: COUNTER_SHARDS,
      seconds: round(elapsed, 1),
      reached: { requests_per_second: round(rate.requests), uploads_per_second: round(rate.uploads) },
      target: { requests_per_second: TARGET.requests, uploads_per_second: TARGET.uploads },
      hottest_key_measured: { key: byKind(hottestMeasured.key), writes_per_second: hottestMeasured.measured },
      hottest_key_at_target: {
        key: byKind(hottestExpected.key),
        mean_writes_per_second: round(hottestExpected.rate),
        busy_second_writes: round(hottestExpected.busySecond),
        limit: KEY_LIMIT,
        within: hottestExpected.busySecond < KEY_LIMIT,
      },
      hottest_window_scaled: {
        key: byKind(hottest.key),
        writes_per_second: round(hottest.atTarget),
        note: 'the largest one-second count of any key, scaled: an upper bound that magnifies the noise of a slow run (a single upload counts as hundreds)',
      },
      mean_by_key_kind_at_target: Object.fromEntries(
        [...expected.reduce((kinds, e) => kinds.set(byKind(e.key), Math.max(kinds.get(byKind(e.key)) ?? 0, e.rate)), new Map<string, number>())]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 10)
          .map(([kind, value]) => [kind, round(value)]),
      ),
      popular_label_at_target: (() => {
        const shards = expected.filter((e) => e.key.includes('#LABEL#'));
        const hottestShard = shards.reduce((a, b) => (b.busySecond > a.busySecond ? b : a), { key: '', rate: 0, busySecond: 0 });
        return { partitions: shards.length, hottest_mean_writes_per_second: round(hottestShard.rate), hottest_busy_second_writes: round(hottestShard.busySecond) };
      })(),
      billing: { ...billing, exact: Object.values(billing).every((b) => b.sent === b.billed) },
      quota_edge: {
        limit_bytes: edgeLimits.bytes,
        stored: edge.filter((e) => e === 'stored').length,
        refused: edge.filter((e) => e === 'refused').length,
        bytes_stored: edgeUsage.bytes_stored,
        exact: edgeUsage.bytes_stored === edgeLimits.bytes,
      },
    };
    const file = path.resolve(import.meta.dirname, 'results', QUICK ? 'hot-counters.quick.json' : 'hot-counters.json');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
    console.log('| measure | value |\n| --- | ---: |');
    console.log(`| reached requests/s | ${result.reached.requests_per_second} |`);
    console.log(`| reached uploads/s | ${result.reached.uploads_per_second} |`);
    console.log(`| hottest key measured (writes/s) | ${result.hottest_key_measured.writes_per_second} (${result.hottest_key_measured.key}) |`);
    console.log(`| hottest key at 5,000 req/s + 500 uploads/s, mean / busy second | ${result.hottest_key_at_target.mean_writes_per_second} / ${result.hottest_key_at_target.busy_second_writes} (${result.hottest_key_at_target.key}) |`);
    console.log(`| the popular label: partitions, hottest mean / busy second | ${result.popular_label_at_target.partitions}, ${result.popular_label_at_target.hottest_mean_writes_per_second} / ${result.popular_label_at_target.hottest_busy_second_writes} |`);
    console.log(`| billing exact | ${result.billing.exact} |`);
    console.log(`| quota edge: stored / refused / bytes | ${result.quota_edge.stored} / ${result.quota_edge.refused} / ${result.quota_edge.bytes_stored} of ${edgeLimits.bytes} |`);
    console.log(JSON.stringify(result.mean_by_key_kind_at_target, null, 2));
  } finally {
    await dynamodb.stop();
  }
}

await main();
