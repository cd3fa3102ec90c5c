/**
 * Documents: list latency at 1,000 and 10,000 documents and upload throughput of 100 KB files, against the local
 * runtime started as a child process (`bin/local.ts`, as the README starts it) on a free port and a temp DATA_DIR.
 *
 *   npx tsx bench/documents.ts            (or: npm run bench:documents)
 *   npx tsx bench/documents.ts --quick    100 and 1,000 documents, fewer samples: a smoke run of the bench itself
 *   npx tsx bench/documents.ts --seed=dynamodb   (or =http) overrides the choice of seeding described below
 *   npx tsx bench/documents.ts --docs=10000,100000   the document counts (in the table, all workspaces together)
 *                                            at which the listings are measured, instead of 1,000 and 10,000
 *   npx tsx bench/documents.ts --workspaces=10   the documents spread over 10 workspaces (document i in workspace
 *                                            i % 10): the first is the bootstrap admin's, the others are made by
 *                                            registering one admin each; every upload run and every listing is
 *                                            timed as the first workspace's admin, so the listings are one
 *                                            workspace's share while the table and the search index hold all
 *
 * Results: bench/results/documents.json; variants add to the name, in this order: .quick, .seed-<method>,
 * .docs-<counts joined by ->, .ws<N> (e.g. documents.docs-10000-100000.ws10.json).
 *
 * Latency is measured client-side (performance.now() around fetch, body read included), sequentially, after a
 * warm-up. Uploads go through `POST /api/documents/upload` with `ocr_enabled=false`, so no OCR work competes.
 * Seeding beyond the upload runs goes through HTTP when that would take under SEED_HTTP_BUDGET_MS, and otherwise
 * straight into DynamoDB Local through the project's own repository (the runtime's endpoint is read from the
 * command line of its DynamoDB Local child process, which runtime.ts does not print). Documents seeded that way
 * are then written into the runtime's search index file too (the project's SqliteSearchIndex, as a rebuild would),
 * with the runtime stopped: the runtime keeps the index's filter columns in memory and assumes it is the only
 * writer, so it is stopped before and started again after, and the bench logs in again.
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
import { SqliteSearchIndex } from '../shared/adapters/local/sqlite-search-index';
import { BOOTSTRAP_WORKSPACE_ID } from '../shared/domain/workspaces/workspace';
import { localClientOptions } from '../shared/local/local-clients';
import { dynamoDbCredentials } from '../shared/local/local-resources';
import type { DocumentRecord, DocumentStatus } from '../shared/domain/documents/document';
import type { IndexedDocument } from '../shared/domain/search/ports';
import { ApiClient } from '../test/support/api-client';
import { startRuntimeProcess, type RuntimeProcess } from '../test/support/runtime-process';
import { percentile, round, seededRandom } from './support/stats';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const QUICK = process.argv.includes('--quick');
const SEED_OVERRIDE = /^--seed=(http|dynamodb)$/.exec(process.argv.find((arg) => arg.startsWith('--seed=')) ?? '')?.[1] as
  | 'http'
  | 'dynamodb'
  | undefined;
const optionValue = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const WORKSPACES = Number(optionValue('workspaces') ?? 1);
const DOCS_OPTION = optionValue('docs')
  ?.split(',')
  .map((count) => Number(count.replaceAll('_', '')));
if (!Number.isInteger(WORKSPACES) || WORKSPACES < 1) throw new Error(`--workspaces=${optionValue('workspaces')}: a whole number >= 1`);
if (DOCS_OPTION && (DOCS_OPTION.length === 0 || DOCS_OPTION.some((count, i) => !Number.isInteger(count) || count < 1 || count <= (DOCS_OPTION[i - 1] ?? 0)))) {
  throw new Error(`--docs=${optionValue('docs')}: whole numbers, ascending, comma-separated`);
}
/** An overridden or quick run does not overwrite the default run's results. */
const RESULTS_FILE = path.join(
  REPO_ROOT,
  'bench',
  'results',
  `documents${QUICK ? '.quick' : ''}${SEED_OVERRIDE ? `.seed-${SEED_OVERRIDE}` : ''}` +
    `${DOCS_OPTION ? `.docs-${DOCS_OPTION.join('-')}` : ''}${WORKSPACES === 1 ? '' : `.ws${WORKSPACES}`}.json`,
);

const ADMIN = { username: 'benchadmin', password: 'bench-admin-password' };
/** runtime.ts names its table so and does not export the name. */
const TABLE_NAME = 'docservice';

const TARGET_P95_MS = 50;
/** Documents in the table (every workspace's) at which the listings are measured. */
const COUNTS = DOCS_OPTION ?? (QUICK ? [100, 1_000] : [1_000, 10_000]);
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
  /** Of `documents`, how many the listed workspace holds (all of them with one workspace). */
  workspaceDocuments: number;
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
  /** Direct seeding only: of `seconds`, writing the search index and restarting the runtime around it. */
  indexAndRestartSeconds?: number;
}

interface Scenario {
  name: string;
  path: string;
  servedBy: string;
}

/** One workspace of the bench: its admin's client and labels, and how many documents it holds so far. */
interface BenchWorkspace {
  id: string;
  credentials: { username: string; password: string };
  api: ApiClient;
  adminId: string;
  labelIds: string[];
  stored: number;
}

/**
 * Everything the phases share: the runtime (replaced when direct seeding restarts it), the workspaces (the first
 * is the one measured) and what has been stored so far; document i goes to workspace i % WORKSPACES.
 */
interface BenchContext {
  runtime: RuntimeProcess;
  workspaces: BenchWorkspace[];
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

const workspaceOf = (ctx: BenchContext, index: number) => ctx.workspaces[index % ctx.workspaces.length]!;

/** One upload as a browser form sends it, by the admin of document `index`'s workspace; true when it answered 201. */
async function uploadOne(ctx: BenchContext, file: Buffer, index: number): Promise<boolean> {
  const workspace = workspaceOf(ctx, index);
  const title = documentTitle(ctx.random, index);
  const form = new FormData();
  form.append('file', new Blob([file], { type: 'image/png' }), `${slug(title)}.png`);
  form.append('title', title);
  form.append('ocr_enabled', 'false');
  if (ctx.random() < LABEL_SHARE) form.append('labels', pick(ctx.random, workspace.labelIds));
  const response = await workspace.api.upload('/api/documents/upload', form).catch(() => ({ status: 0 }));
  if (response.status !== 201) return false;
  workspace.stored++;
  return true;
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
function seedRecord(ctx: BenchContext, workspace: BenchWorkspace, index: number, now: number): DocumentRecord {
  const { random } = ctx;
  const type = weighted(random, FILE_TYPES);
  const status = weighted(random, STATUSES).status;
  const title = documentTitle(random, index);
  const createdAt = now - random() * 365 * 86_400_000;
  const updatedAt = Math.min(now, createdAt + random() * 3 * 86_400_000);
  const labelled = random() < LABEL_SHARE;
  const labelIds = workspace.labelIds;
  const labels = labelled ? [...new Set([pick(random, labelIds), ...(random() < 0.3 ? [pick(random, labelIds)] : [])])] : [];
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
    created_by: workspace.adminId,
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

/** A seeded record as the indexer would index it: no text yet, the workspace's label names. */
const indexedDocument = (workspace: BenchWorkspace, record: DocumentRecord): IndexedDocument => ({
  id: record.id,
  version: 1,
  title: record.title,
  filename: record.filename,
  content: '',
  mime_type: record.mime_type,
  status: record.status,
  labels: record.labels.map((id) => ({ id, name: LABEL_NAMES[workspace.labelIds.indexOf(id)]! })),
  metadata: record.metadata as IndexedDocument['metadata'],
  ocr_confidence: record.ocr_confidence,
  size: record.size,
  created_at: record.created_at,
  updated_at: record.updated_at,
});

/**
 * Writes `count` documents with the repository's own create(), so counters and label memberships stay right,
 * each into its workspace; then, with the runtime stopped, into its search index file; then starts it again.
 */
async function seedDirect(ctx: BenchContext, count: number): Promise<number> {
  const db = createDynamoDocumentClient(
    localClientOptions(await dynamoDbEndpoint(ctx.runtime.child.pid!), await dynamoDbCredentials(ctx.runtime.dataDir)),
  );
  const repositories = ctx.workspaces.map((workspace) => new DynamoDocumentRepository(db, TABLE_NAME, workspace.id));
  const written: DocumentRecord[][] = ctx.workspaces.map(() => []);
  const now = Date.now();
  await pool(count, SEED_DIRECT_CONCURRENCY, async (offset) => {
    const index = ctx.stored + offset;
    const n = index % ctx.workspaces.length;
    const record = seedRecord(ctx, ctx.workspaces[n]!, index, now);
    for (let attempt = 1; ; attempt++) {
      try {
        await repositories[n]!.create(record);
        written[n]!.push(record);
        ctx.workspaces[n]!.stored++;
        return;
      } catch (error) {
        if (!isTransactionConflict(error) || attempt >= 10) throw error;
        await sleep(attempt * 5);
      }
    }
  });
  ctx.stored += count;
  db.destroy();

  const start = performance.now();
  process.stderr.write(`stopping the runtime to write ${count} documents into its search index...\n`);
  await ctx.runtime.stop();
  const index = new SqliteSearchIndex(path.join(ctx.runtime.dataDir, 'search', 'index.sqlite'), { readers: 0 });
  try {
    for (const [n, workspace] of ctx.workspaces.entries()) {
      const records = written[n]!;
      for (let i = 0; i < records.length; i += 1000) index.forWorkspace(workspace.id).upsertMany(records.slice(i, i + 1000).map((record) => indexedDocument(workspace, record)));
    }
  } finally {
    index.close();
  }
  ctx.runtime = await startBenchRuntime(ctx.runtime.dataDir);
  for (const workspace of ctx.workspaces) workspace.api = await logIn(ctx.runtime, workspace.credentials);
  return (performance.now() - start) / 1000;
}

/** Brings the store up to `target` documents by the chosen method and times it. */
async function seedTo(ctx: BenchContext, target: number, method: SeedPhase['method']): Promise<SeedPhase | null> {
  const count = target - ctx.stored;
  if (count <= 0) return null;
  process.stderr.write(`seeding ${count} documents (${method}) up to ${target}...\n`);
  const start = performance.now();
  let indexAndRestartSeconds: number | undefined;
  if (method === 'dynamodb') indexAndRestartSeconds = round(await seedDirect(ctx, count));
  else await uploadRun(ctx, { purpose: 'seed sample', files: count, bytes: () => seedBytes(ctx.random), concurrency: SEED_HTTP_CONCURRENCY });
  const seconds = (performance.now() - start) / 1000;
  return { upTo: target, method, documents: count, seconds: round(seconds), documentsPerSecond: round(count / seconds), indexAndRestartSeconds };
}

/** The listings of the issue, with the store that serves each (docs/api-notes.md, documents). */
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
  const response = await fetch(`${ctx.runtime.baseUrl}${url}`, { headers: { authorization: `Bearer ${ctx.workspaces[0]!.api.token}` } });
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
    workspaceDocuments: ctx.workspaces[0]!.stored,
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

/** The total the API reports to the measured workspace's admin, to check that seeding reached its share. */
async function listedTotal(ctx: BenchContext): Promise<number> {
  const response = await ctx.workspaces[0]!.api.get('/api/documents?per_page=1');
  return Number(response.body?.pagination?.total ?? Number.NaN);
}

/** The runtime as the bench runs it, on `dataDir` (kept across a restart). */
const startBenchRuntime = (dataDir: string) =>
  startRuntimeProcess({
    dataDir,
    // A day-long token: the bench outlives the default hour. Registration makes the other workspaces.
    env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, JWT_TTL_SECONDS: '86400', REGISTRATION_MODE: 'workspace' },
  });

async function logIn(runtime: RuntimeProcess, credentials: BenchWorkspace['credentials']): Promise<ApiClient> {
  const anonymous = new ApiClient(runtime.baseUrl);
  const login = await anonymous.post('/api/auth/login', credentials);
  if (login.status !== 200) throw new Error(`login of ${credentials.username} failed: ${JSON.stringify(login.body)}`);
  return anonymous.withToken(login.body.token);
}

/** The bootstrap admin's workspace, then WORKSPACES - 1 more, each made by registering its admin; five labels in each. */
async function setUp(runtime: RuntimeProcess): Promise<BenchContext> {
  const workspaces: BenchWorkspace[] = [];
  for (let n = 0; n < WORKSPACES; n++) {
    const credentials = n === 0 ? ADMIN : { username: `benchadmin${n + 1}`, password: `bench-admin-password-${n + 1}` };
    if (n > 0) {
      const registered = await new ApiClient(runtime.baseUrl).post('/api/auth/register', { ...credentials, email: `${credentials.username}@example.com` });
      if (registered.status !== 201) throw new Error(`registering ${credentials.username} failed: ${JSON.stringify(registered.body)}`);
    }
    const api = await logIn(runtime, credentials);
    const me = await api.get('/api/users/profile');
    if (me.status !== 200 || typeof me.body?.workspace_id !== 'string') throw new Error(`no workspace for ${credentials.username}: ${JSON.stringify(me.body)}`);
    const labelIds: string[] = [];
    for (const [index, name] of LABEL_NAMES.entries()) {
      const created = await api.post('/api/labels', { name, color: `#${(0x3366cc + index * 0x101010).toString(16).padStart(6, '0')}` });
      if (created.status !== 201) throw new Error(`label ${name} not created: ${JSON.stringify(created.body)}`);
      labelIds.push(created.body.id);
    }
    workspaces.push({ id: me.body.workspace_id, credentials, api, adminId: me.body.id, labelIds, stored: 0 });
  }
  if (workspaces[0]!.id !== BOOTSTRAP_WORKSPACE_ID) throw new Error(`the admin's workspace is ${workspaces[0]!.id}, not the bootstrap one`);
  if (new Set(workspaces.map((workspace) => workspace.id)).size !== WORKSPACES) throw new Error('two bench admins share a workspace');
  return { runtime, workspaces, stored: 0, random: seededRandom(42) };
}

function markdownTables(uploads: readonly UploadResult[], latencies: readonly LatencyResult[]): string {
  const uploadRows = uploads.map(
    (u) =>
      `| ${u.purpose} | ${(u.fileBytes / 1024).toFixed(1)} | ${u.concurrency} | ${u.files} | ${u.seconds.toFixed(1)} | ${u.documentsPerSecond.toFixed(1)} | ${u.failures} |`,
  );
  // With several workspaces, a column says how many of the documents the listed workspace holds.
  const spread = WORKSPACES > 1;
  const latencyRows = latencies.map(
    (l) =>
      `| ${l.scenario} | ${l.documents.toLocaleString('en')} |${spread ? ` ${l.workspaceDocuments.toLocaleString('en')} |` : ''} ${l.matched.toLocaleString('en')} | ${l.p50Ms.toFixed(1)} | ${l.p95Ms.toFixed(1)} | ${l.maxMs.toFixed(1)} | ${l.samples} | ${l.targetMet ? 'yes' : 'no'} | ${l.servedBy} |`,
  );
  return [
    '| upload run | file KB | concurrency | files | s | documents/s | failed |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...uploadRows,
    '',
    `| listing (page of 20) | documents |${spread ? ` in workspace 1 of ${WORKSPACES} |` : ''} matched | p50 ms | p95 ms | max ms | samples | p95 < ${TARGET_P95_MS} ms | served by |`,
    `| --- | ---: |${spread ? ' ---: |' : ''} ---: | ---: | ---: | ---: | ---: | --- | --- |`,
    ...latencyRows,
  ].join('\n');
}

/** `ctx` is the caller's, so that it can stop the runtime the bench last started, even after a failure. */
async function run(ctx: BenchContext) {
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
  /** The API's total for the measured workspace at each count, against the share the bench stored there. */
  const totals: Record<number, { apiTotal: number; workspaceDocuments: number }> = {};
  let memoryAtLargest: Awaited<ReturnType<typeof memory>> | null = null;
  const measured = ctx.workspaces[0]!;
  for (const count of COUNTS) {
    const phase = await seedTo(ctx, count, method);
    if (phase) seeding.push(phase);
    totals[count] = { apiTotal: await listedTotal(ctx), workspaceDocuments: measured.stored };
    process.stderr.write(
      `measuring listings at ${count} documents, ${measured.stored} of them in workspace ${measured.id} (1 of ${WORKSPACES}; API total ${totals[count].apiTotal})...\n`,
    );
    for (const scenario of scenarios(measured.labelIds[0]!, Date.now())) latencies.push(await measureScenario(ctx, scenario, count));
    if (count === COUNTS.at(-1)) memoryAtLargest = await memory(ctx.runtime.child.pid!);
  }
  const workspaces = ctx.workspaces.map((workspace) => ({ id: workspace.id, documents: workspace.stored }));
  return { uploads, latencies, seeding, method, projectedHttpSeconds, workspaces, totals, memoryAtLargest };
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-documents-'));
  let runtime: RuntimeProcess | undefined;
  let ctx: BenchContext | undefined;
  // Ctrl-C must not leave the runtime and its JVM behind.
  const interrupted = () => void cleanUp().finally(() => process.exit(130));
  const cleanUp = async () => {
    // The runtime's JVM ends with it, even when it was killed (see spawnTiedToParent). Direct seeding restarts
    // the runtime: the context holds the one running now.
    await (ctx?.runtime ?? runtime)?.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    process.stderr.write('starting the local runtime...\n');
    runtime = await startBenchRuntime(dataDir);
    ctx = await setUp(runtime);
    const shared = ctx;
    const result = await run(shared).catch((error: unknown) => {
      // A dropped connection usually means the runtime died: its own last words say why.
      const current = shared.runtime;
      const exit = current.child.exitCode ?? current.child.signalCode ?? 'still running';
      process.stderr.write(`runtime (${exit}), last output:\n${current.output().slice(-4000)}\n`);
      throw error;
    });

    console.log(markdownTables(result.uploads, result.latencies));
    console.log();
    const seedLine = result.seeding.map((s) => `${s.documents} up to ${s.upTo} in ${s.seconds.toFixed(1)} s (${s.documentsPerSecond}/s)`);
    console.log(
      `Seeding: ${result.method === 'dynamodb' ? 'straight into DynamoDB Local with DynamoDocumentRepository.create()' : 'through HTTP'}` +
        ` (HTTP at ${SEED_HTTP_CONCURRENCY} in flight would have taken ~${Math.round(result.projectedHttpSeconds)} s): ${seedLine.join('; ')}.`,
    );
    console.log(
      `Workspaces: ${WORKSPACES}; listings as the admin of ${result.workspaces[0]!.id}. Documents per workspace: ` +
        `${result.workspaces.map((workspace) => workspace.documents).join(', ')}.`,
    );
    console.log(`API totals of the listed workspace (against its share): ${JSON.stringify(result.totals)}.`);
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
      counts: COUNTS,
      workspaceCount: WORKSPACES,
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
