/**
 * Documents: list latency at 1,000 and 10,000 documents and upload throughput of 100 KB files, against the local
 * runtime started as a child process (`bin/local.ts`, as the README starts it) on a free port and a temp DATA_DIR.
 *
 *   npx tsx bench/documents.ts            (or: npm run bench:documents)
 *   npx tsx bench/documents.ts --quick    100 and 1,000 documents, fewer samples: a smoke run of the bench itself
 *   npx tsx bench/documents.ts --seed=dynamodb   (or =http) overrides the choice of seeding described below
 *
 * Results: bench/results/documents.json, or documents.quick.json / documents.seed-<method>.json for the variants.
 *
 * Latency is measured client-side (performance.now() around fetch, body read included), sequentially, after a
 * warm-up. Uploads go through `POST /api/documents/upload` with `ocr_enabled=false`, so no OCR work competes.
 * Seeding beyond the upload runs goes through HTTP when that would take under SEED_HTTP_BUDGET_MS, and otherwise
 * straight into DynamoDB Local through the project's own repository (the runtime's endpoint is read from the
 * command line of its DynamoDB Local child process, which runtime.ts does not print).
 * The bench reports; it exits non-zero only when it crashes itself.
 */
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { crc32, deflateSync } from 'node:zlib';
import { createDynamoDocumentClient } from '../shared/adapters/aws/clients';
import { DynamoDocumentRepository } from '../shared/adapters/aws/dynamodb/document-repository';
import { BOOTSTRAP_WORKSPACE_ID } from '../shared/domain/workspaces/workspace';
import { localClientOptions } from '../shared/container/local';
import { dynamoDbCredentials } from '../shared/local/runtime';
import type { DocumentRecord, DocumentStatus } from '../shared/domain/documents/document';
import { ApiClient } from '../test/support/api-client';
import { startRuntimeProcess, type RuntimeProcess } from '../test/support/runtime-process';
import { percentile, round, seededRandom } from './support/stats';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const QUICK = process.argv.includes('--quick');
const SEED_OVERRIDE = /^--seed=(http|dynamodb)$/.exec(process.argv.find((arg) => arg.startsWith('--seed=')) ?? '')?.[1] as
  | 'http'
  | 'dynamodb'
  | undefined;
/** An overridden or quick run does not overwrite the default run's results. */
const RESULTS_FILE = path.join(
  REPO_ROOT,
  'bench',
  'results',
  `documents${QUICK ? '.quick' : ''}${SEED_OVERRIDE ? `.seed-${SEED_OVERRIDE}` : ''}.json`,
);

const ADMIN = { username: 'benchadmin', password: 'bench-admin-password' };
/** runtime.ts names its table so and does not export the name. */
const TABLE_NAME = 'docservice';

const TARGET_P95_MS = 50;
const COUNTS = QUICK ? [100, 1_000] : [1_000, 10_000];
const WARMUP_REQUESTS = 20;
const SAMPLES = QUICK ? 50 : 200;
/** A full-scan listing at 10,000 documents can take seconds: 200 of them would hold the bench for many minutes. */
const SCENARIO_BUDGET_MS = 120_000;
const WARMUP_BUDGET_MS = 30_000;

const UPLOAD_FILES = QUICK ? 20 : 200;
const UPLOAD_BYTES = 100 * 1024;
const UPLOAD_CONCURRENCIES = [1, 4];
const SEED_SAMPLE = QUICK ? 40 : 200;
/** Seed files of 0.5 to 2 KB: small, so HTTP seeding is fast, but varied, so a sort by size has work to do. */
const seedBytes = (random: () => number) => 512 + Math.floor(random() * 1536);
const SEED_HTTP_CONCURRENCY = 4;
const SEED_DIRECT_CONCURRENCY = 8;
const SEED_HTTP_BUDGET_MS = 10 * 60_000;
const LABEL_SHARE = 0.3;
const LABEL_NAMES = ['invoices', 'contracts', 'receipts', 'personal', 'archive'];

interface UploadResult {
  purpose: 'throughput' | 'seed sample';
  concurrency: number;
  files: number;
  fileBytes: number;
  seconds: number;
  documentsPerSecond: number;
  failures: number;
}

interface LatencyResult {
  scenario: string;
  documents: number;
  path: string;
  servedBy: string;
  /** `pagination.total` of the answer: how many documents the listing matched. */
  matched: number;
  samples: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  targetMet: boolean;
}

interface SeedPhase {
  upTo: number;
  method: 'http' | 'dynamodb';
  documents: number;
  seconds: number;
  documentsPerSecond: number;
}

interface Scenario {
  name: string;
  path: string;
  servedBy: string;
}

/** Everything the phases share: the runtime, a logged-in client, and what has been stored so far. */
interface BenchContext {
  runtime: RuntimeProcess;
  api: ApiClient;
  adminId: string;
  labelIds: string[];
  stored: number;
  random: () => number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A valid RGB PNG of about `bytes` bytes. Random pixels do not compress, so the size follows the pixel count,
 * and no two files share a sha256 (test/support's pngImage is a gradient that deflates to almost nothing).
 */
function noisePng(bytes: number): Buffer {
  const side = Math.max(1, Math.round(Math.sqrt(bytes / 3)));
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // RGB
  const rows = randomBytes((side * 3 + 1) * side);
  for (let y = 0; y < side; y++) rows[y * (side * 3 + 1)] = 0; // filter type "none" on every row
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows, { level: 1 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Runs `task(i)` for i in 0..count-1 with at most `concurrency` in flight. */
async function pool(count: number, concurrency: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

const TITLE_WORDS = ['Invoice', 'Contract', 'Receipt', 'Letter', 'Statement', 'Report', 'Policy', 'Offer', 'Minutes', 'Payslip'];
const PARTIES = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Stark', 'Wayne', 'Hooli', 'Vandelay', 'Tax office', 'Landlord'];

/** Titles as people file them ("Invoice Acme 00042"), so a sort by title compares real-looking strings. */
const documentTitle = (random: () => number, index: number) =>
  `${pick(random, TITLE_WORDS)} ${pick(random, PARTIES)} ${String(index).padStart(5, '0')}`;
const slug = (title: string) => title.toLowerCase().replaceAll(' ', '-');

/** One upload as a browser form sends it; true when the API answered 201. */
async function uploadOne(ctx: BenchContext, file: Buffer, index: number): Promise<boolean> {
  const title = documentTitle(ctx.random, index);
  const form = new FormData();
  form.append('file', new Blob([file], { type: 'image/png' }), `${slug(title)}.png`);
  form.append('title', title);
  form.append('ocr_enabled', 'false');
  if (ctx.random() < LABEL_SHARE) form.append('labels', pick(ctx.random, ctx.labelIds));
  const response = await ctx.api.upload('/api/documents/upload', form).catch(() => ({ status: 0 }));
  return response.status === 201;
}

/** Uploads distinct files through HTTP; the files are made before the clock starts. */
async function uploadRun(
  ctx: BenchContext,
  options: { purpose: UploadResult['purpose']; files: number; bytes: () => number; concurrency: number },
): Promise<UploadResult> {
  const files = Array.from({ length: options.files }, () => noisePng(options.bytes()));
  let failures = 0;
  const start = performance.now();
  await pool(files.length, options.concurrency, async (index) => {
    if (!(await uploadOne(ctx, files[index]!, ctx.stored + index))) failures++;
  });
  const seconds = (performance.now() - start) / 1000;
  ctx.stored += files.length - failures;
  return {
    purpose: options.purpose,
    concurrency: options.concurrency,
    files: files.length,
    fileBytes: Math.round(files.reduce((sum, file) => sum + file.length, 0) / files.length),
    seconds: round(seconds),
    documentsPerSecond: round((files.length - failures) / seconds),
    failures,
  };
}

const FILE_TYPES = [
  { mime: 'application/pdf', ext: 'pdf', weight: 0.6 },
  { mime: 'image/jpeg', ext: 'jpg', weight: 0.2 },
  { mime: 'image/png', ext: 'png', weight: 0.1 },
  { mime: 'image/tiff', ext: 'tif', weight: 0.05 },
  { mime: 'image/webp', ext: 'webp', weight: 0.05 },
] as const;
const STATUSES: { status: DocumentStatus; weight: number }[] = [
  { status: 'completed', weight: 0.8 },
  { status: 'failed', weight: 0.08 },
  { status: 'pending', weight: 0.09 },
  { status: 'processing', weight: 0.03 },
];

function weighted<T extends { weight: number }>(random: () => number, items: readonly T[]): T {
  let roll = random();
  for (const item of items) {
    roll -= item.weight;
    if (roll < 0) return item;
  }
  return items.at(-1)!;
}

/**
 * A document as an upload and OCR would have left it, but with realistic variety: created over the past year,
 * sizes from 5 KB to 5 MB (log-uniform), mostly completed, labels on about 30 %.
 */
function seedRecord(ctx: BenchContext, index: number, now: number): DocumentRecord {
  const { random } = ctx;
  const type = weighted(random, FILE_TYPES);
  const status = weighted(random, STATUSES).status;
  const title = documentTitle(random, index);
  const createdAt = now - random() * 365 * 86_400_000;
  const updatedAt = Math.min(now, createdAt + random() * 3 * 86_400_000);
  const labelled = random() < LABEL_SHARE;
  const labels = labelled ? [...new Set([pick(random, ctx.labelIds), ...(random() < 0.3 ? [pick(random, ctx.labelIds)] : [])])] : [];
  return {
    id: randomUUID(),
    title,
    filename: `${slug(title)}.${type.ext}`,
    mime_type: type.mime,
    size: Math.round(5 * 1024 * Math.pow(1000, random())),
    sha256: randomBytes(32).toString('hex'),
    status,
    ocr_enabled: true,
    language: random() < 0.8 ? 'eng' : 'deu',
    ocr_confidence: status === 'completed' ? round(60 + random() * 39) : null,
    labels,
    metadata: random() < 0.2 ? { year: 2024 + Math.floor(random() * 2), reviewed: random() < 0.5 } : {},
    source_id: null,
    failure_reason: status === 'failed' ? 'OCR could not read the page' : null,
    created_by: ctx.adminId,
    created_at: new Date(createdAt).toISOString(),
    updated_at: new Date(updatedAt).toISOString(),
  };
}

const execFileAsync = promisify(execFile);

/** The endpoint of the runtime's DynamoDB Local, from the `-port` argument of its java child process. */
async function dynamoDbEndpoint(runtimePid: number): Promise<string> {
  const { stdout } = await execFileAsync('ps', ['--ppid', String(runtimePid), '-o', 'pid=,args=']);
  const line = stdout.split('\n').find((entry) => entry.includes('DynamoDBLocal.jar'));
  const port = line && /\s-port\s+(\d+)/.exec(line)?.[1];
  if (!port) throw new Error(`no DynamoDB Local child of process ${runtimePid}:\n${stdout}`);
  return `http://127.0.0.1:${port}`;
}

/** RSS in MB of the runtime and of its DynamoDB Local, a separate JVM that holds the table. */
async function memory(runtimePid: number): Promise<{ runtimeRssMb: number; dynamoDbLocalRssMb: number | null }> {
  const rssMb = async (args: string[]) => {
    const { stdout } = await execFileAsync('ps', [...args, '-o', 'rss=,args=']);
    return stdout.split('\n').filter(Boolean).map((line) => ({ kb: Number.parseInt(line.trim(), 10), args: line }));
  };
  const [self] = await rssMb(['-p', String(runtimePid)]);
  const java = (await rssMb(['--ppid', String(runtimePid)])).find((entry) => entry.args.includes('DynamoDBLocal.jar'));
  return { runtimeRssMb: round((self?.kb ?? 0) / 1024), dynamoDbLocalRssMb: java ? round(java.kb / 1024) : null };
}

/** A TransactWrite that collided with another on the shared document counter: safe to send again. */
const isTransactionConflict = (error: unknown): boolean =>
  error instanceof Error && error.name === 'TransactionCanceledException' && /TransactionConflict/.test(error.message);

/** Writes `count` documents with the repository's own create(), so counter and label memberships stay right. */
async function seedDirect(ctx: BenchContext, repository: DynamoDocumentRepository, count: number): Promise<void> {
  const now = Date.now();
  await pool(count, SEED_DIRECT_CONCURRENCY, async (index) => {
    const record = seedRecord(ctx, ctx.stored + index, now);
    for (let attempt = 1; ; attempt++) {
      try {
        await repository.create(record);
        return;
      } catch (error) {
        if (!isTransactionConflict(error) || attempt >= 10) throw error;
        await sleep(attempt * 5);
      }
    }
  });
  ctx.stored += count;
}

/** Brings the store up to `target` documents by the chosen method and times it. */
async function seedTo(
  ctx: BenchContext,
  target: number,
  method: SeedPhase['method'],
  repository: () => Promise<DynamoDocumentRepository>,
): Promise<SeedPhase | null> {
  const count = target - ctx.stored;
  if (count <= 0) return null;
  process.stderr.write(`seeding ${count} documents (${method}) up to ${target}...\n`);
  const start = performance.now();
  if (method === 'dynamodb') await seedDirect(ctx, await repository(), count);
  else await uploadRun(ctx, { purpose: 'seed sample', files: count, bytes: () => seedBytes(ctx.random), concurrency: SEED_HTTP_CONCURRENCY });
  const seconds = (performance.now() - start) / 1000;
  return { upTo: target, method, documents: count, seconds: round(seconds), documentsPerSecond: round(count / seconds) };
}

/** The listings of the issue, with the store that serves each (README, API notes on documents). */
function scenarios(labelId: string, now: number): Scenario[] {
  const day = (daysAgo: number) => new Date(now - daysAgo * 86_400_000).toISOString().slice(0, 10);
  return [
    { name: 'default page', path: '/api/documents', servedBy: 'DynamoDB gsi1, reads only the page; total from a counter' },
    { name: 'deep page (page 50)', path: '/api/documents?page=50', servedBy: 'search index (SQLite): the page\'s ids; DynamoDB: their rows in one batch' },
    {
      name: 'status filter + title sort',
      path: '/api/documents?status=completed&sort=title&order=asc',
      servedBy: 'search index (SQLite): the page\'s ids and the total; DynamoDB: their rows in one batch',
    },
    {
      name: 'label filter',
      path: `/api/documents?label_ids=${labelId}`,
      servedBy: 'search index (SQLite): the page\'s ids and the total; DynamoDB: their rows in one batch',
    },
    {
      // The last six months: about half of the directly seeded documents (spread over a year), all of the uploaded.
      name: 'date range + size sort',
      path: `/api/documents?date_from=${day(182)}&date_to=${day(0)}&sort=size&order=desc`,
      servedBy: 'search index (SQLite): the page\'s ids and the total; DynamoDB: their rows in one batch',
    },
  ];
}

/** One timed GET, body read included; a non-200 answer ends the bench, since its timing would mean nothing. */
async function timedGet(ctx: BenchContext, url: string): Promise<{ ms: number; body: string }> {
  const start = performance.now();
  const response = await fetch(`${ctx.runtime.baseUrl}${url}`, { headers: { authorization: `Bearer ${ctx.api.token}` } });
  const body = await response.text();
  const ms = performance.now() - start;
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${body.slice(0, 300)}`);
  return { ms, body };
}

/** Warm-up, then sequential samples until SAMPLES or the time budget, whichever comes first. */
async function measureScenario(ctx: BenchContext, scenario: Scenario, documents: number): Promise<LatencyResult> {
  process.stderr.write(`  ${scenario.name} at ${documents}...\n`);
  const warmupEnd = performance.now() + WARMUP_BUDGET_MS;
  const first = await timedGet(ctx, scenario.path);
  const matched = Number((JSON.parse(first.body) as { pagination: { total: number } }).pagination.total);
  for (let i = 1; i < WARMUP_REQUESTS && performance.now() < warmupEnd; i++) await timedGet(ctx, scenario.path);
  const samples: number[] = [];
  const end = performance.now() + SCENARIO_BUDGET_MS;
  while (samples.length < SAMPLES && performance.now() < end) samples.push((await timedGet(ctx, scenario.path)).ms);
  samples.sort((a, b) => a - b);
  const p95Ms = round(percentile(samples, 95));
  return {
    scenario: scenario.name,
    documents,
    path: scenario.path,
    servedBy: scenario.servedBy,
    matched,
    samples: samples.length,
    p50Ms: round(percentile(samples, 50)),
    p95Ms,
    maxMs: round(samples.at(-1) ?? Number.NaN),
    targetMet: p95Ms < TARGET_P95_MS,
  };
}

/** The total the API reports, to check that seeding reached the count the row claims. */
async function listedTotal(ctx: BenchContext): Promise<number> {
  const response = await ctx.api.get('/api/documents?per_page=1');
  return Number(response.body?.pagination?.total ?? Number.NaN);
}

async function setUp(runtime: RuntimeProcess): Promise<BenchContext> {
  const anonymous = new ApiClient(runtime.baseUrl);
  const login = await anonymous.post('/api/auth/login', ADMIN);
  if (login.status !== 200) throw new Error(`admin login failed: ${JSON.stringify(login.body)}`);
  const api = anonymous.withToken(login.body.token);
  const labelIds: string[] = [];
  for (const [index, name] of LABEL_NAMES.entries()) {
    const created = await api.post('/api/labels', { name, color: `#${(0x3366cc + index * 0x101010).toString(16).padStart(6, '0')}` });
    if (created.status !== 201) throw new Error(`label ${name} not created: ${JSON.stringify(created.body)}`);
    labelIds.push(created.body.id);
  }
  return { runtime, api, adminId: login.body.user.id, labelIds, stored: 0, random: seededRandom(42) };
}

function markdownTables(uploads: readonly UploadResult[], latencies: readonly LatencyResult[]): string {
  const uploadRows = uploads.map(
    (u) =>
      `| ${u.purpose} | ${(u.fileBytes / 1024).toFixed(1)} | ${u.concurrency} | ${u.files} | ${u.seconds.toFixed(1)} | ${u.documentsPerSecond.toFixed(1)} | ${u.failures} |`,
  );
  const latencyRows = latencies.map(
    (l) =>
      `| ${l.scenario} | ${l.documents.toLocaleString('en')} | ${l.matched.toLocaleString('en')} | ${l.p50Ms.toFixed(1)} | ${l.p95Ms.toFixed(1)} | ${l.maxMs.toFixed(1)} | ${l.samples} | ${l.targetMet ? 'yes' : 'no'} | ${l.servedBy} |`,
  );
  return [
    '| upload run | file KB | concurrency | files | s | documents/s | failed |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...uploadRows,
    '',
    `| listing (page of 20) | documents | matched | p50 ms | p95 ms | max ms | samples | p95 < ${TARGET_P95_MS} ms | served by |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |',
    ...latencyRows,
  ].join('\n');
}

async function run(runtime: RuntimeProcess) {
  const ctx = await setUp(runtime);
  let repository: DynamoDocumentRepository | undefined;
  const repositoryOnce = async () =>
    (repository ??= new DynamoDocumentRepository(
      createDynamoDocumentClient(localClientOptions(await dynamoDbEndpoint(runtime.child.pid!), await dynamoDbCredentials(runtime.dataDir))),
      TABLE_NAME,
      BOOTSTRAP_WORKSPACE_ID,
    ));

  const uploads: UploadResult[] = [];
  for (const concurrency of UPLOAD_CONCURRENCIES) {
    process.stderr.write(`uploading ${UPLOAD_FILES} files of 100 KB at concurrency ${concurrency}...\n`);
    uploads.push(await uploadRun(ctx, { purpose: 'throughput', files: UPLOAD_FILES, bytes: () => UPLOAD_BYTES, concurrency }));
  }
  process.stderr.write(`uploading ${SEED_SAMPLE} files of 1 KB at concurrency ${SEED_HTTP_CONCURRENCY} to time HTTP seeding...\n`);
  const sample = await uploadRun(ctx, { purpose: 'seed sample', files: SEED_SAMPLE, bytes: () => seedBytes(ctx.random), concurrency: SEED_HTTP_CONCURRENCY });
  uploads.push(sample);
  const projectedHttpSeconds = (COUNTS.at(-1)! - ctx.stored) / sample.documentsPerSecond;
  const method: SeedPhase['method'] = SEED_OVERRIDE ?? (projectedHttpSeconds * 1000 > SEED_HTTP_BUDGET_MS ? 'dynamodb' : 'http');

  const seeding: SeedPhase[] = [];
  const latencies: LatencyResult[] = [];
  const totals: Record<number, number> = {};
  let memoryAtLargest: Awaited<ReturnType<typeof memory>> | null = null;
  for (const count of COUNTS) {
    const phase = await seedTo(ctx, count, method, repositoryOnce);
    if (phase) seeding.push(phase);
    totals[count] = await listedTotal(ctx);
    process.stderr.write(`measuring listings at ${count} documents (API total ${totals[count]})...\n`);
    for (const scenario of scenarios(ctx.labelIds[0]!, Date.now())) latencies.push(await measureScenario(ctx, scenario, count));
    if (count === COUNTS.at(-1)) memoryAtLargest = await memory(runtime.child.pid!);
  }
  return { uploads, latencies, seeding, method, projectedHttpSeconds, totals, memoryAtLargest };
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-documents-'));
  let runtime: RuntimeProcess | undefined;
  // Ctrl-C must not leave the runtime and its JVM behind.
  const interrupted = () => void cleanUp().finally(() => process.exit(130));
  const cleanUp = async () => {
    // The runtime's JVM ends with it, even when it was killed (see spawnTiedToParent).
    await runtime?.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    process.stderr.write('starting the local runtime...\n');
    runtime = await startRuntimeProcess({
      dataDir,
      // A day-long token: the bench outlives the default hour.
      env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, JWT_TTL_SECONDS: '86400' },
    });
    const started = runtime;
    const result = await run(started).catch((error: unknown) => {
      // A dropped connection usually means the runtime died: its own last words say why.
      const exit = started.child.exitCode ?? started.child.signalCode ?? 'still running';
      process.stderr.write(`runtime (${exit}), last output:\n${started.output().slice(-4000)}\n`);
      throw error;
    });

    console.log(markdownTables(result.uploads, result.latencies));
    console.log();
    const seedLine = result.seeding.map((s) => `${s.documents} up to ${s.upTo} in ${s.seconds.toFixed(1)} s (${s.documentsPerSecond}/s)`);
    console.log(
      `Seeding: ${result.method === 'dynamodb' ? 'straight into DynamoDB Local with DynamoDocumentRepository.create()' : 'through HTTP'}` +
        ` (HTTP at ${SEED_HTTP_CONCURRENCY} in flight would have taken ~${Math.round(result.projectedHttpSeconds)} s): ${seedLine.join('; ')}.`,
    );
    console.log(`API totals: ${JSON.stringify(result.totals)}.`);
    if (result.memoryAtLargest) {
      console.log(
        `RSS at ${COUNTS.at(-1)!.toLocaleString('en')} documents: runtime ${result.memoryAtLargest.runtimeRssMb} MB, ` +
          `DynamoDB Local ${result.memoryAtLargest.dynamoDbLocalRssMb ?? 'n/a'} MB.`,
      );
    }
    console.log(`Machine: ${os.cpus().length} cores, ${process.platform}-${process.arch}, Node ${process.version}.`);

    await mkdir(path.dirname(RESULTS_FILE), { recursive: true });
    const report = {
      measuredAt: new Date().toISOString(),
      machine: { node: process.version, platform: `${process.platform}-${process.arch}`, cores: os.cpus().length },
      quick: QUICK,
      targets: { p95Ms: TARGET_P95_MS, perPage: 20 },
      samplesPerScenario: SAMPLES,
      scenarioBudgetMs: SCENARIO_BUDGET_MS,
      ...result,
    };
    await writeFile(RESULTS_FILE, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`Written: ${path.relative(REPO_ROOT, RESULTS_FILE)}`);
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await cleanUp();
  }
}

await main();
