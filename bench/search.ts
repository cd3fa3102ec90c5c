/**
 * Search: the embedded index (SQLite FTS5) against PostgreSQL full-text search, side by side in one run, on the
 * same generated documents (about 2 KB of text each) and the same queries.
 *
 *   npx tsx bench/search.ts               (or: npm run bench:search) 100,000 documents in one workspace
 *   npx tsx bench/search.ts --docs=20000  another document count (results: search.<n>.json)
 *   npx tsx bench/search.ts --workspaces=10  the documents spread over 10 workspaces (round robin), every query
 *                                            in the first one's (results: search[.<n>].ws10.json)
 *   npx tsx bench/search.ts --neighbour   the first workspace holds every tenth document, a second one the other
 *                                         nine tenths (results: search[.<n>].neighbour.json)
 *   --samples=100 --reps=3                queries per kind and repetitions (interleaved: each query runs on both
 *                                         engines, in turns, and the whole mix is repeated)
 *   --no-postgres                         the embedded index alone
 *   npx tsx bench/search.ts --keep        keeps the index file (its path is printed) for a closer look
 *   npx tsx bench/search.ts --only=lag    only the change-to-searchable lag (below); --only=index skips it
 *   --lag-edits=200 --lag-uploads=50 --lag-burst=40 --lag-poll-ms=5   its samples and the pause between two searches
 *
 * Results: bench/results/search*.json; the lag: bench/results/search-lag.json.
 *
 * Build: both engines load the same batches of 1,000 documents in turns (ours: one transaction per batch and
 * workspace; PostgreSQL: one INSERT per batch and workspace), then ours merges its segments (FTS5 optimize and
 * VACUUM) and PostgreSQL builds its indexes (bench/support/postgres.ts: what a DBA would build); each engine's
 * build time is its loads plus that step. Then ours takes 2,000 single-document writes (the indexer's path).
 * Size: our file against PostgreSQL's tables with their indexes, each with every feature (words, phrases,
 * prefixes, typos, substrings, facets, highlights).
 * Queries: one-word, two-word, phrase, prefix, fuzzy (a typo: a transposition) through GET /api/search, and
 * `contains` (a piece of an invoice number or of a word) through POST /api/search/advanced, with highlights and
 * facets, through the real search handler (zod parsing, the use case, the index, JSON body) with an in-process
 * caller; PostgreSQL answers each with one statement (page, total, facets, ts_headline) over loopback.
 * The text is generated: a Zipf-distributed vocabulary of 300 common English words of office documents and
 * 30,000 made-up words, with invoice numbers, amounts and dates, in sentences and paragraphs.
 * The machine's load (1-minute load average) is recorded with the numbers.
 * Then the change-to-searchable lag (issue 17: the index follows the table's stream) against the local runtime
 * started as a child process: see bench/support/search-lag.ts.
 * The bench reports; it exits non-zero only when it crashes itself.
 */
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSearchHandler } from '../functions/search/handler';
import { SqliteSearchIndex } from '../shared/adapters/local/sqlite-search-index';
import type { SearchHandlerDeps } from '../functions/search/handler';
import type { IndexedDocument } from '../shared/domain/search/ports';
import { httpEvent, lambdaTestContext } from '../test/support/http-events';
import { watchNoise } from './support/machine';
import { loadBatch, POSTGRES_INDEXES, POSTGRES_SCHEMA, postgresBytes, postgresSearchSql, startTempCluster, type TempCluster } from './support/postgres';
import { measureSearchLag } from './support/search-lag';
import { percentile, round, seededRandom } from './support/stats';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const DOCS = Number(/^--docs=(\d+)$/.exec(process.argv.find((arg) => arg.startsWith('--docs=')) ?? '')?.[1] ?? 100_000);
const NEIGHBOUR = process.argv.includes('--neighbour');
const WORKSPACES = NEIGHBOUR ? 2 : Number(/^--workspaces=(\d+)$/.exec(process.argv.find((arg) => arg.startsWith('--workspaces=')) ?? '')?.[1] ?? 1);
const POSTGRES = !process.argv.includes('--no-postgres');
const numberFlag = (name: string, fallback: number) => Number(process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const ONLY = process.argv.find((arg) => arg.startsWith('--only='))?.split('=')[1];
if (ONLY !== undefined && !['lag', 'index'].includes(ONLY)) throw new Error('--only is lag or index');
const LAG = { edits: numberFlag('lag-edits', 200), uploads: numberFlag('lag-uploads', 50), burst: numberFlag('lag-burst', 40), pollMs: numberFlag('lag-poll-ms', 5) };
const LAG_RESULTS_FILE = path.join(REPO_ROOT, 'bench/results/search-lag.json');
const RESULTS_FILE = path.join(
  REPO_ROOT,
  'bench/results',
  `search${DOCS === 100_000 ? '' : `.${DOCS}`}${NEIGHBOUR ? '.neighbour' : WORKSPACES === 1 ? '' : `.ws${WORKSPACES}`}${POSTGRES ? '' : '.sqlite-only'}.json`,
);
/** Workspace ids; the queries run in the first one. */
const workspaceIds = Array.from({ length: WORKSPACES }, (_, n) => `3a3a0000-0000-4000-8000-${String(n + 1).padStart(12, '0')}`);
/** The workspace of document i: round robin, or (--neighbour) every tenth in the first, the rest in the second. */
const workspaceOf = (i: number): number => (NEIGHBOUR ? (i % 10 === 0 ? 0 : 1) : i % WORKSPACES);
const SAMPLES = numberFlag('samples', 100);
const REPS = numberFlag('reps', 3);
const WARMUP = 10;
const SINGLE_WRITES = 2_000;
const TARGET_TEXT_BYTES = 2_000;

const rand = seededRandom(42);
const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;

const COMMON = `the of and to a in for is on that by this with you it not or be are from at as your all have new more an was we
will can us about if page my has our one other do no information time they site he up may what which their news out use any
there see only so his when contact here business who also now help get view online first been would how were me services some
these click its like service than find price date back top people had list name just over state year day into email two
health world next used go work last most products music buy data make them should product system post her city add policy
number such please available copyright support message after best software then jan good video well where info rights public
books high school through each links she review years order very privacy book items company read group need many user said
does set under general research university january mail full map reviews program life know games way days management part
could great united hotel real item international center ebay must store travel comments made development report off member
details line terms before hotels did send right type because local those using results office education national car design
take posted internet address community within states area want phone shipping reserved subject between forum family long
invoice invoices receipt receive received payment payments amount total due account customer supplier contract contracts
delivery tax vat balance statement quarter annual budget meeting minutes agenda signed agreement purchase goods net gross
paid unpaid overdue reminder bank transfer reference currency euro dollar insurance policy claim premium salary employee
department manager director approval request project schedule deadline quotation estimate discount shipment warehouse`
  .split(/\s+/)
  .filter(Boolean);

const SYLLABLES = 'ka ri to ne mo sa lu vi de ra po ti na be lo mi fu ge ha ju ko le ma nu pe qui ro se ta ve wa xi yo ze bra cle dri fro gla pli stra tre'.split(' ');
const RARE = Array.from({ length: 30_000 }, (_, i) => {
  const local = seededRandom(i + 1000);
  const count = 2 + Math.floor(local() * 3);
  return Array.from({ length: count }, () => SYLLABLES[Math.floor(local() * SYLLABLES.length)]).join('') + (i % 7 === 0 ? 'tion' : '');
});
const VOCABULARY = [...COMMON, ...RARE];

/** Zipf(s = 1.07) over the vocabulary, as natural text roughly is: a cumulative table and a binary search. */
const CUMULATIVE = (() => {
  const weights = VOCABULARY.map((_, rank) => 1 / Math.pow(rank + 1, 1.07));
  const sum = weights.reduce((a, b) => a + b, 0);
  let running = 0;
  return weights.map((weight) => (running += weight / sum));
})();
function word(): string {
  const r = rand();
  let lo = 0;
  let hi = CUMULATIVE.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (CUMULATIVE[mid]! < r) lo = mid + 1;
    else hi = mid;
  }
  return VOCABULARY[lo]!;
}

function sentence(): string {
  const words = Array.from({ length: 6 + Math.floor(rand() * 14) }, word);
  const extra = rand();
  if (extra < 0.15) words.splice(Math.floor(rand() * words.length), 0, `INV-${2019 + Math.floor(rand() * 6)}-${String(Math.floor(rand() * 1_000_000)).padStart(6, '0')}`);
  else if (extra < 0.3) words.push(`${(rand() * 10_000).toFixed(2)} EUR`);
  else if (extra < 0.4) words.push(`on ${2019 + Math.floor(rand() * 6)}-${String(1 + Math.floor(rand() * 12)).padStart(2, '0')}-${String(1 + Math.floor(rand() * 28)).padStart(2, '0')}`);
  const text = words.join(' ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}

function text(): string {
  let out = '';
  while (out.length < TARGET_TEXT_BYTES) out += (out.length && rand() < 0.2 ? '\n\n' : out.length ? ' ' : '') + sentence();
  return out;
}

const MIME_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'text/plain', 'image/tiff'];
const LABELS = Array.from({ length: 12 }, (_, i) => ({ id: `1abe1000-0000-4000-8000-${String(i).padStart(12, '0')}`, name: `${pick(COMMON)} ${i}` }));

function document(n: number): IndexedDocument {
  const title = `${pick(COMMON)} ${word()} ${word()}`.replace(/^./, (c) => c.toUpperCase());
  const labels = LABELS.filter(() => rand() < 0.12);
  const created = new Date(Date.UTC(2019, 0, 1) + Math.floor(rand() * 6 * 365 * 86_400_000)).toISOString();
  return {
    id: `d0c00000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    version: 1,
    title,
    filename: `${title.toLowerCase().replace(/\s+/g, '-')}.pdf`,
    content: text(),
    mime_type: pick(MIME_TYPES),
    status: rand() < 0.9 ? 'completed' : 'failed',
    labels,
    metadata: rand() < 0.5 ? { vendor: `${pick(RARE)} GmbH`, department: pick(COMMON) } : {},
    ocr_confidence: Math.round(rand() * 1000) / 1000,
    size: 10_000 + Math.floor(rand() * 5_000_000),
    created_at: created,
    updated_at: created,
  };
}

const rawBytes = (d: IndexedDocument) =>
  Buffer.byteLength(d.title) +
  Buffer.byteLength(d.filename) +
  Buffer.byteLength(d.content) +
  Buffer.byteLength(d.labels.map((label) => label.name).join('\n')) +
  Buffer.byteLength(Object.values(d.metadata).join('\n'));


function summary(samples: number[]) {
  return { p50_ms: round(percentile(samples, 50), 2), p95_ms: round(percentile(samples, 95), 2), max_ms: round(Math.max(...samples), 2), samples: samples.length };
}

/** Mid-frequency words: common enough to match many documents, the kind a user types. */
const QUERY_WORDS = COMMON.slice(20, 320);
const typo = (value: string) => {
  const i = 1 + Math.floor(rand() * (value.length - 2));
  return value.slice(0, i) + value[i + 1] + value[i] + value.slice(i + 2);
};

const KINDS = ['one-word', 'two-word', 'phrase', 'prefix', 'fuzzy', 'contains'] as const;
type QueryKind = (typeof KINDS)[number];
interface BenchQuery {
  kind: QueryKind;
  /** What the user typed (the search box), or the `contains` value. */
  q: string;
  fuzzy: boolean;
  /** The same intent, as PostgreSQL's statement takes it ($2). */
  pg: string;
}

function queries(kind: QueryKind, sampleDocs: IndexedDocument[]): BenchQuery[] {
  return Array.from({ length: SAMPLES + WARMUP }, (): BenchQuery => {
    switch (kind) {
      case 'one-word': {
        const w = pick(QUERY_WORDS);
        return { kind, q: w, fuzzy: false, pg: w };
      }
      case 'two-word': {
        const q = `${pick(QUERY_WORDS)} ${pick(QUERY_WORDS)}`;
        return { kind, q, fuzzy: false, pg: q };
      }
      case 'phrase': {
        const words = pick(sampleDocs).content.split(/\s+/).filter((w) => /^[a-z]+$/.test(w));
        const at = Math.floor(rand() * Math.max(1, words.length - 2));
        const phrase = words.slice(at, at + 2).join(' ');
        return { kind, q: `"${phrase}"`, fuzzy: false, pg: phrase };
      }
      case 'prefix': {
        const w = pick(QUERY_WORDS.filter((candidate) => candidate.length >= 5));
        const prefix = w.slice(0, 4);
        return { kind, q: `${prefix}*`, fuzzy: false, pg: prefix };
      }
      case 'fuzzy': {
        const w = typo(pick(QUERY_WORDS.filter((candidate) => candidate.length >= 6)));
        return { kind, q: w, fuzzy: true, pg: w };
      }
      case 'contains': {
        // Half pieces of invoice numbers (a code match), half the inside of a word.
        const codes = pick(sampleDocs).content.match(/INV-\d{4}-\d{6}/g);
        if (codes && rand() < 0.5) {
          const digits = pick(codes).slice(9);
          const value = digits.slice(1, 6);
          return { kind, q: value, fuzzy: false, pg: value };
        }
        const w = pick(QUERY_WORDS.filter((candidate) => candidate.length >= 6));
        const value = w.slice(1, 5);
        return { kind, q: value, fuzzy: false, pg: value };
      }
    }
  });
}

const load = () => round(os.loadavg()[0]!, 2);

async function main() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-search-'));
  const file = path.join(dir, 'search.sqlite');
  const store = new SqliteSearchIndex(file);
  const loads: Record<string, number> = { start: load() };
  const cluster: TempCluster | null = POSTGRES ? await startTempCluster() : null;
  try {
    await compare(dir, file, store, cluster, loads);
  } finally {
    store.close();
    await cluster?.stop();
    if (process.argv.includes('--keep')) console.log(`index kept at ${file}`);
    else await rm(dir, { recursive: true, force: true });
  }
}

async function compare(dir: string, file: string, store: SqliteSearchIndex, cluster: TempCluster | null, loads: Record<string, number>) {
  if (cluster) await cluster.client.query(POSTGRES_SCHEMA);
  console.log(`generating and indexing ${DOCS.toLocaleString('en')} documents in ${dir}${cluster ? ` and PostgreSQL ${cluster.version}` : ''} (load ${loads.start})`);

  const documents: IndexedDocument[] = [];
  let raw = 0;
  let indexMs = 0;
  let pgLoadMs = 0;
  let generateMs = 0;
  for (let start = 0; start < DOCS; start += 1000) {
    const g = performance.now();
    const batch = Array.from({ length: Math.min(1000, DOCS - start) }, (_, i) => document(start + i));
    generateMs += performance.now() - g;
    for (const d of batch) raw += rawBytes(d);
    const parts = workspaceIds.map((_, n) => batch.filter((_, i) => workspaceOf(start + i) === n));
    const t = performance.now();
    for (const [n, workspaceId] of workspaceIds.entries()) store.forWorkspace(workspaceId).upsertMany(parts[n]!);
    indexMs += performance.now() - t;
    if (cluster) {
      const p = performance.now();
      for (const [n, workspaceId] of workspaceIds.entries()) await loadBatch(cluster.client, workspaceId, parts[n]!);
      pgLoadMs += performance.now() - p;
    }
    documents.push(...batch);
    if ((start / 1000) % 10 === 0) {
      const done = start + batch.length;
      console.log(`  ${done.toLocaleString('en')} indexed: ours ${round(done / (indexMs / 1000), 0)} docs/s${cluster ? `, PostgreSQL ${round(done / (pgLoadMs / 1000), 0)} docs/s` : ''}`);
    }
  }
  const batchRate = DOCS / (indexMs / 1000);

  const optimizeStart = performance.now();
  store.optimize();
  const optimizeMs = performance.now() - optimizeStart;
  store.checkpoint();
  let pgIndexMs = 0;
  if (cluster) {
    const p = performance.now();
    for (const statement of POSTGRES_INDEXES) await cluster.client.query(statement);
    pgIndexMs = performance.now() - p;
  }
  loads.after_build = load();
  const sizes = store.sizeOnDisk();
  const fileBytes = (await stat(file)).size;
  const pgBytes = cluster ? await postgresBytes(cluster.client) : 0;
  const ourBuildS = (indexMs + optimizeMs) / 1000;
  const pgBuildS = (pgLoadMs + pgIndexMs) / 1000;
  console.log(
    `build: ours ${round(ourBuildS)} s (optimize ${round(optimizeMs / 1000)} s)${cluster ? `, PostgreSQL ${round(pgBuildS)} s (indexes ${round(pgIndexMs / 1000)} s)` : ''}; ` +
      `raw text ${(raw / 1e6).toFixed(1)} MB, our file ${(fileBytes / 1e6).toFixed(1)} MB${cluster ? `, PostgreSQL ${(pgBytes / 1e6).toFixed(1)} MB` : ''}`,
  );

  // The indexer's path: one upsert (one transaction, one fsync-free WAL commit) per document, re-writing a newer version.
  const single = performance.now();
  for (let i = 0; i < SINGLE_WRITES; i++) await store.forWorkspace(workspaceIds[workspaceOf(i)]!).upsert({ ...documents[i]!, version: 2 });
  const singleRate = SINGLE_WRITES / ((performance.now() - single) / 1000);

  const container = {
    corsOrigins: '*',
    authenticate: async () => ({
      userId: 'bench',
      username: 'bench',
      email: 'bench@example.com',
      role: 'viewer',
      workspaceId: workspaceIds[0],
      jti: 'bench',
      tokenExpiresAt: new Date(Date.now() + 3_600_000),
    }),
    // The handler counts each search in the workspace's usage: a table write in the runtimes, none here.
    forWorkspace: (workspaceId: string) => ({ searchIndex: store.forWorkspace(workspaceId), usageMeter: { count: async () => undefined } }),
  } as unknown as SearchHandlerDeps;
  const handler = createSearchHandler(container);
  const searched = documents.filter((_, i) => workspaceOf(i) === 0);
  console.log(
    `searching workspace ${workspaceIds[0]} (1 of ${WORKSPACES}): ${searched.length.toLocaleString('en')} of the ` +
      `${DOCS.toLocaleString('en')} indexed documents; ${SAMPLES} queries per kind, ${REPS} repetitions, interleaved (load ${load()})`,
  );
  // Words of the searched workspace's documents, so that every query has matches there.
  const sample = searched.slice(0, 5000);
  const plans = Object.fromEntries(KINDS.map((kind) => [kind, queries(kind, sample)])) as Record<QueryKind, BenchQuery[]>;
  const statements = Object.fromEntries(KINDS.map((kind) => [kind, postgresSearchSql(kind)])) as Record<QueryKind, string>;

  const ours = async (query: BenchQuery): Promise<{ ms: number; total: number }> => {
    const event =
      query.kind === 'contains'
        ? httpEvent('POST /api/search/advanced', {
            headers: { authorization: 'Bearer bench' },
            body: { query: { must: [{ field: 'all', value: query.q, type: 'contains' }] }, per_page: 20, highlight: true },
          })
        : httpEvent('GET /api/search', {
            headers: { authorization: 'Bearer bench' },
            query: { q: query.q, per_page: '20', fuzzy: String(query.fuzzy), highlight: 'true' },
          });
    const t = performance.now();
    const response = await handler(event, lambdaTestContext);
    const ms = performance.now() - t;
    if (response.statusCode !== 200) throw new Error(`${query.q}: ${response.statusCode} ${response.body}`);
    return { ms, total: (JSON.parse(response.body as string) as { total: number }).total };
  };
  const theirs = async (query: BenchQuery): Promise<{ ms: number; total: number }> => {
    const t = performance.now();
    const { rows } = await cluster!.client.query<{ total: string }>(statements[query.kind], [workspaceIds[0], query.pg]);
    return { ms: performance.now() - t, total: Number(rows[0]?.total ?? 0) };
  };

  const times = { sqlite: new Map<QueryKind, number[]>(), postgres: new Map<QueryKind, number[]>() };
  const totals = { sqlite: new Map<QueryKind, number>(), postgres: new Map<QueryKind, number>() };
  const record = (engine: 'sqlite' | 'postgres', kind: QueryKind, result: { ms: number; total: number }) => {
    times[engine].set(kind, [...(times[engine].get(kind) ?? []), result.ms]);
    totals[engine].set(kind, (totals[engine].get(kind) ?? 0) + result.total);
  };
  for (let rep = 0; rep < REPS; rep++) {
    for (const kind of KINDS) {
      for (const [i, query] of plans[kind].entries()) {
        // In turns, which engine goes first alternating, so that neither always finds the caches warm.
        const first = i % 2 === 0 ? 'sqlite' : 'postgres';
        for (const engine of first === 'sqlite' ? (['sqlite', 'postgres'] as const) : (['postgres', 'sqlite'] as const)) {
          if (engine === 'postgres' && !cluster) continue;
          const result = engine === 'sqlite' ? await ours(query) : await theirs(query);
          if (i >= WARMUP) record(engine, kind, result);
        }
      }
      const ourP95 = percentile(times.sqlite.get(kind)!, 95);
      const pgP95 = cluster ? percentile(times.postgres.get(kind)!, 95) : Number.NaN;
      console.log(`  rep ${rep + 1} ${kind}: p95 ours ${round(ourP95, 1)} ms${cluster ? `, PostgreSQL ${round(pgP95, 1)} ms (${round(ourP95 / pgP95, 2)}x)` : ''} (load ${load()})`);
    }
  }
  loads.after_queries = load();

  const latency = Object.fromEntries(
    KINDS.map((kind) => {
      const ourTimes = times.sqlite.get(kind)!;
      const entry: Record<string, unknown> = { sqlite: { ...summary(ourTimes), mean_total: Math.round(totals.sqlite.get(kind)! / ourTimes.length) } };
      if (cluster) {
        const pgTimes = times.postgres.get(kind)!;
        entry['postgres'] = { ...summary(pgTimes), mean_total: Math.round(totals.postgres.get(kind)! / pgTimes.length) };
        entry['p95_ratio_sqlite_over_postgres'] = round(percentile(ourTimes, 95) / percentile(pgTimes, 95), 2);
      }
      return [kind, entry];
    }),
  );
  const result = {
    documents: DOCS,
    workspaces: WORKSPACES,
    layout: NEIGHBOUR ? 'the searched workspace holds every tenth document, a neighbour the rest' : WORKSPACES === 1 ? 'one workspace' : 'round robin',
    searched_workspace: workspaceIds[0],
    searched_workspace_documents: searched.length,
    samples_per_kind: SAMPLES * REPS,
    repetitions: REPS,
    postgres_version: cluster?.version ?? null,
    generated_in_s: round(generateMs / 1000),
    raw_text_bytes: raw,
    raw_text_bytes_per_document: Math.round(raw / DOCS),
    build: {
      sqlite_s: round(ourBuildS),
      sqlite_batches_s: round(indexMs / 1000),
      sqlite_optimize_s: round(optimizeMs / 1000),
      postgres_s: cluster ? round(pgBuildS) : null,
      postgres_load_s: cluster ? round(pgLoadMs / 1000) : null,
      postgres_indexes_s: cluster ? round(pgIndexMs / 1000) : null,
      ratio_sqlite_over_postgres: cluster ? round(ourBuildS / pgBuildS, 2) : null,
      batch_of_1000_docs_per_s: Math.round(batchRate),
      one_transaction_per_doc_per_s: Math.round(singleRate),
    },
    size: {
      sqlite_file_bytes: fileBytes,
      sqlite_text_bytes: sizes.docs,
      sqlite_fts_bytes: sizes.fts,
      sqlite_unstemmed_bytes: sizes.raw,
      sqlite_token_trigram_bytes: sizes.trigram,
      sqlite_phrase_pairs_bytes: sizes.pairs,
      sqlite_vocabulary_bytes: sizes.words,
      postgres_bytes: cluster ? pgBytes : null,
      ratio_sqlite_over_postgres: cluster ? round(fileBytes / pgBytes, 2) : null,
      ratio_sqlite_over_raw_text: round(fileBytes / raw, 2),
    },
    latency_ms: latency,
    machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, node: process.version, load_average_1m: loads },
  };
  await mkdir(path.dirname(RESULTS_FILE), { recursive: true });
  await writeFile(RESULTS_FILE, `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
}

/** The change-to-searchable lag through the local runtime's stream (bench/support/search-lag.ts). */
async function lag() {
  console.log(`change-to-searchable lag: ${LAG.edits} edits, ${LAG.uploads} uploads, ${LAG.pollMs} ms between searches`);
  const noise = watchNoise();
  const begun = performance.now();
  const measured = await measureSearchLag(LAG);
  const elapsedS = round((performance.now() - begun) / 1000);
  const { loadAtStart, otherCores } = noise.stop();
  const machine = { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, node: process.version, load_at_start: round(loadAtStart, 2), other_work_cores: round(otherCores, 2) };
  const result = { ...measured, elapsed_s: elapsedS, machine };
  await mkdir(path.dirname(LAG_RESULTS_FILE), { recursive: true });
  await writeFile(LAG_RESULTS_FILE, `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
}

if (ONLY !== 'lag') await main();
if (ONLY !== 'index') await lag();
