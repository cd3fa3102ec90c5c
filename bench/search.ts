/**
 * Search: the embedded index (SQLite FTS5) at 100,000 generated documents of about 2 KB of text each, against
 * MiniSearch on the same documents in the same run.
 *
 *   npx tsx bench/search.ts               (or: npm run bench:search)
 *   npx tsx bench/search.ts --docs=20000  another document count (results: search.<n>.json)
 *   npx tsx bench/search.ts --keep        keeps the index file (its path is printed) for a closer look
 *   npx tsx bench/search.ts --workspaces=10  the documents spread over 10 workspaces (round robin), every query
 *                                            in the first one's (results: search[.<n>].ws10.json)
 *   npx tsx bench/search.ts --only=lag    only the change-to-searchable lag (below); --only=index skips it
 *   --lag-edits=200 --lag-uploads=50 --lag-poll-ms=5   its samples and the pause between two searches
 *
 * Results: bench/results/search.json; the lag: bench/results/search-lag.json.
 *
 * Measured: the index build rate (documents/s) in batches of 1,000 per transaction (a rebuild) and one
 * transaction per document (the indexer after each change), then an FTS5 optimize (segment merge + VACUUM),
 * timed apart; the index size on disk against the raw text
 * (trigram table and fuzzy vocabulary reported apart); and GET /api/search latency p50/p95 for one-word,
 * two-word, phrase, prefix and fuzzy queries with highlights and facets, through the real search handler
 * (zod parsing, the use case, the index, JSON body) with an in-process caller, sequentially, after a warm-up.
 * MiniSearch answers the same queries (it has no phrases, highlights or facets: its phrase query is the words
 * AND-ed, and the facets are counted in JS over its hits so that both do the same job).
 * The text is generated: a Zipf-distributed vocabulary of 300 common English words of office documents and
 * 30,000 made-up words, with invoice numbers, amounts and dates, in sentences and paragraphs.
 * Then the change-to-searchable lag (issue 17: the index follows the table's stream) against the local runtime
 * started as a child process: see bench/support/search-lag.ts.
 * The bench reports; it exits non-zero only when it crashes itself.
 */
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import MiniSearch from 'minisearch';
import { createSearchHandler } from '../functions/search/handler';
import { SqliteSearchIndex } from '../shared/adapters/local/sqlite-search-index';
import type { AppContainer } from '../shared/container/app-container';
import type { IndexedDocument } from '../shared/domain/search/ports';
import { httpEvent, lambdaTestContext } from '../test/support/http-events';
import { watchNoise } from './support/machine';
import { measureSearchLag } from './support/search-lag';
import { percentile, round, seededRandom } from './support/stats';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const DOCS = Number(/^--docs=(\d+)$/.exec(process.argv.find((arg) => arg.startsWith('--docs=')) ?? '')?.[1] ?? 100_000);
const WORKSPACES = Number(/^--workspaces=(\d+)$/.exec(process.argv.find((arg) => arg.startsWith('--workspaces=')) ?? '')?.[1] ?? 1);
const numberFlag = (name: string, fallback: number) => Number(process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const ONLY = process.argv.find((arg) => arg.startsWith('--only='))?.split('=')[1];
if (ONLY !== undefined && !['lag', 'index'].includes(ONLY)) throw new Error('--only is lag or index');
const LAG = { edits: numberFlag('lag-edits', 200), uploads: numberFlag('lag-uploads', 50), pollMs: numberFlag('lag-poll-ms', 5) };
const LAG_RESULTS_FILE = path.join(REPO_ROOT, 'bench/results/search-lag.json');
const RESULTS_FILE = path.join(
  REPO_ROOT,
  'bench/results',
  `search${DOCS === 100_000 ? '' : `.${DOCS}`}${WORKSPACES === 1 ? '' : `.ws${WORKSPACES}`}.json`,
);
/** Workspace ids; document i belongs to workspace i % WORKSPACES, and the queries run in the first one. */
const workspaceIds = Array.from({ length: WORKSPACES }, (_, n) => `3a3a0000-0000-4000-8000-${String(n + 1).padStart(12, '0')}`);
const SAMPLES = 200;
const WARMUP = 20;
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

type QueryKind = 'one-word' | 'two-word' | 'phrase' | 'prefix' | 'fuzzy';
interface BenchQuery {
  kind: QueryKind;
  q: string;
  fuzzy: boolean;
  /** The same intent, as MiniSearch takes it. */
  mini: { text: string; options: Parameters<MiniSearch['search']>[1] };
}

function queries(kind: QueryKind, sampleDocs: IndexedDocument[]): BenchQuery[] {
  return Array.from({ length: SAMPLES + WARMUP }, () => {
    switch (kind) {
      case 'one-word': {
        const w = pick(QUERY_WORDS);
        return { kind, q: w, fuzzy: false, mini: { text: w, options: {} } };
      }
      case 'two-word': {
        const q = `${pick(QUERY_WORDS)} ${pick(QUERY_WORDS)}`;
        return { kind, q, fuzzy: false, mini: { text: q, options: { combineWith: 'AND' } } };
      }
      case 'phrase': {
        const words = pick(sampleDocs).content.split(/\s+/).filter((w) => /^[a-z]+$/.test(w));
        const at = Math.floor(rand() * Math.max(1, words.length - 2));
        const phrase = words.slice(at, at + 2).join(' ');
        return { kind, q: `"${phrase}"`, fuzzy: false, mini: { text: phrase, options: { combineWith: 'AND' } } };
      }
      case 'prefix': {
        const w = pick(QUERY_WORDS.filter((candidate) => candidate.length >= 5));
        const prefix = w.slice(0, 4);
        return { kind, q: `${prefix}*`, fuzzy: false, mini: { text: prefix, options: { prefix: true } } };
      }
      case 'fuzzy': {
        const w = typo(pick(QUERY_WORDS.filter((candidate) => candidate.length >= 6)));
        return { kind, q: w, fuzzy: true, mini: { text: w, options: { fuzzy: (term: string) => (term.length >= 8 ? 2 : term.length >= 4 ? 1 : 0) } } };
      }
    }
  });
}

async function main() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-search-'));
  const file = path.join(dir, 'search.sqlite');
  const store = new SqliteSearchIndex(file);
  console.log(`generating and indexing ${DOCS.toLocaleString('en')} documents in ${dir}`);

  const documents: IndexedDocument[] = [];
  let raw = 0;
  let indexMs = 0;
  let generateMs = 0;
  for (let start = 0; start < DOCS; start += 1000) {
    const g = performance.now();
    const batch = Array.from({ length: Math.min(1000, DOCS - start) }, (_, i) => document(start + i));
    generateMs += performance.now() - g;
    for (const d of batch) raw += rawBytes(d);
    const t = performance.now();
    for (const [n, workspaceId] of workspaceIds.entries()) {
      store.forWorkspace(workspaceId).upsertMany(batch.filter((_, i) => (start + i) % WORKSPACES === n));
    }
    indexMs += performance.now() - t;
    documents.push(...batch);
    if ((start / 1000) % 10 === 0) console.log(`  ${(start + batch.length).toLocaleString('en')} indexed, ${round((start + batch.length) / (indexMs / 1000), 0)} docs/s`);
  }
  const batchRate = DOCS / (indexMs / 1000);

  // The indexer's path: one upsert (one transaction, one fsync-free WAL commit) per document, re-writing a newer version.
  const single = performance.now();
  for (let i = 0; i < SINGLE_WRITES; i++) await store.forWorkspace(workspaceIds[i % WORKSPACES]!).upsert({ ...documents[i]!, version: 2 });
  const singleRate = SINGLE_WRITES / ((performance.now() - single) / 1000);

  const optimizeStart = performance.now();
  store.optimize();
  const optimizeMs = performance.now() - optimizeStart;
  store.checkpoint();
  const sizes = store.sizeOnDisk();
  const fileBytes = (await stat(file)).size;
  console.log(`raw text ${(raw / 1e6).toFixed(1)} MB, file ${(fileBytes / 1e6).toFixed(1)} MB, trigram ${(sizes.trigram / 1e6).toFixed(1)} MB`);

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
  } as unknown as AppContainer;
  const handler = createSearchHandler(container);

  const kinds: QueryKind[] = ['one-word', 'two-word', 'phrase', 'prefix', 'fuzzy'];
  console.log(
    `searching workspace ${workspaceIds[0]} (1 of ${WORKSPACES}): ${Math.ceil(DOCS / WORKSPACES).toLocaleString('en')} of the ` +
      `${DOCS.toLocaleString('en')} indexed documents`,
  );
  // Words of the searched workspace's documents, so that every query has matches there.
  const sample = documents.filter((_, i) => i % WORKSPACES === 0).slice(0, 5000);
  const plans = Object.fromEntries(kinds.map((kind) => [kind, queries(kind, sample)])) as Record<QueryKind, BenchQuery[]>;

  const sqlite: Record<string, ReturnType<typeof summary> & { mean_total: number }> = {};
  for (const kind of kinds) {
    const times: number[] = [];
    let totals = 0;
    for (const [i, query] of plans[kind].entries()) {
      const event = httpEvent('GET /api/search', {
        headers: { authorization: 'Bearer bench' },
        query: { q: query.q, per_page: '20', fuzzy: String(query.fuzzy), highlight: 'true' },
      });
      const t = performance.now();
      const response = await handler(event, lambdaTestContext);
      const elapsed = performance.now() - t;
      if (response.statusCode !== 200) throw new Error(`${query.q}: ${response.statusCode} ${response.body}`);
      if (i >= WARMUP) {
        times.push(elapsed);
        totals += (JSON.parse(response.body as string) as { total: number }).total;
      }
    }
    sqlite[kind] = { ...summary(times), mean_total: Math.round(totals / times.length) };
    console.log(`  sqlite ${kind}: p50 ${sqlite[kind].p50_ms} ms, p95 ${sqlite[kind].p95_ms} ms, mean matches ${sqlite[kind].mean_total}`);
  }

  console.log('building MiniSearch on the same documents');
  const mini = new MiniSearch<IndexedDocument>({
    fields: ['title', 'filename', 'content'],
    storeFields: ['title', 'mime_type'],
    extractField: (d, field) => (d as unknown as Record<string, string>)[field] ?? '',
    searchOptions: { boost: { title: 10, filename: 5 } },
  });
  const miniStart = performance.now();
  for (let i = 0; i < documents.length; i += 1000) mini.addAll(documents.slice(i, i + 1000));
  const miniRate = DOCS / ((performance.now() - miniStart) / 1000);
  const heap = process.memoryUsage().heapUsed;

  const minisearch: Record<string, ReturnType<typeof summary> & { mean_total: number }> = {};
  for (const kind of kinds) {
    const times: number[] = [];
    let totals = 0;
    for (const [i, query] of plans[kind].entries()) {
      const t = performance.now();
      const hits = mini.search(query.mini.text, query.mini.options);
      const facets: Record<string, number> = {};
      for (const hit of hits) facets[hit['mime_type'] as string] = (facets[hit['mime_type'] as string] ?? 0) + 1;
      JSON.stringify({ results: hits.slice(0, 20).map((hit) => ({ document_id: hit.id, title: hit['title'], score: hit.score })), total: hits.length, facets });
      const elapsed = performance.now() - t;
      if (i >= WARMUP) {
        times.push(elapsed);
        totals += hits.length;
      }
    }
    minisearch[kind] = { ...summary(times), mean_total: Math.round(totals / times.length) };
    console.log(`  minisearch ${kind}: p50 ${minisearch[kind].p50_ms} ms, p95 ${minisearch[kind].p95_ms} ms, mean matches ${minisearch[kind].mean_total}`);
  }

  const nonTrigram = sizes.total - sizes.trigram;
  const result = {
    documents: DOCS,
    workspaces: WORKSPACES,
    searched_workspace: workspaceIds[0],
    searched_workspace_documents: Math.ceil(DOCS / WORKSPACES),
    generated_in_s: round(generateMs / 1000),
    raw_text_bytes: raw,
    raw_text_bytes_per_document: Math.round(raw / DOCS),
    build: {
      batch_of_1000_docs_per_s: Math.round(batchRate),
      one_transaction_per_doc_per_s: Math.round(singleRate),
      minisearch_docs_per_s: Math.round(miniRate),
      optimize_after_build_s: round(optimizeMs / 1000),
    },
    size: {
      file_bytes: fileBytes,
      index_bytes_without_trigram: nonTrigram,
      trigram_bytes: sizes.trigram,
      fuzzy_vocabulary_bytes: sizes.words,
      ratio_without_trigram: round(nonTrigram / raw, 2),
      ratio_trigram: round(sizes.trigram / raw, 2),
      target_ratio: 1.5,
      minisearch_heap_bytes_after_build: heap,
    },
    latency_ms: Object.fromEntries(
      kinds.map((kind) => [
        kind,
        {
          sqlite: sqlite[kind],
          minisearch: minisearch[kind],
          p95_ratio_sqlite_over_minisearch: round(sqlite[kind]!.p95_ms / minisearch[kind]!.p95_ms, 2),
        },
      ]),
    ),
    targets: {
      one_word_p95_under_50ms: sqlite['one-word']!.p95_ms < 50,
      fuzzy_p95_under_150ms: sqlite['fuzzy']!.p95_ms < 150,
      size_under_1_5x_raw: nonTrigram / raw < 1.5,
    },
    machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, node: process.version },
  };
  await mkdir(path.dirname(RESULTS_FILE), { recursive: true });
  await writeFile(RESULTS_FILE, `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
  store.close();
  if (process.argv.includes('--keep')) console.log(`index kept at ${file}`);
  else await rm(dir, { recursive: true, force: true });
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
