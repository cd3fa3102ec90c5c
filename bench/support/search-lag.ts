/**
 * Change-to-searchable lag (issue 17): the search index follows the table's stream, so a change becomes
 * searchable a moment after the request that made it has answered. Measured against the local runtime
 * (`bin/local.ts` as a child process, its DynamoDB Local stream and its `indexer` poller), over HTTP, as a
 * client sees it:
 *
 * - edit: `PUT /api/documents/{id}` gives the document a title of one fresh made-up word, then
 *   `GET /api/search?q=<word>` is repeated until the document is among the hits;
 * - upload: `POST /api/documents/upload` of a small PNG whose filename is a fresh word (OCR off), then the
 *   same search for that word;
 * - burst: `burst` such uploads sent at once, their filenames sharing a fresh word (and each its own), then
 *   searches for the shared word until every one of them is a hit: each upload is timed from its own answer to
 *   the answer of the first search that found it.
 *
 * Each sample is timed from the request's answer and from its start. A search that found the document read
 * the index somewhere between sending and answering, and the previous search, which missed, read it after it
 * was sent; so the moment it became searchable lies between the last miss's send and the hit's answer. The hit's
 * answer is the headline (an upper bound: it includes one search's round trip); the last miss's send is the
 * lower bound. Searches are sequential with `pollMs` between an answer and the next send; their own round trip
 * is reported, since it is both the measurement's resolution and load on the runtime that serves the indexer.
 */
import { deflateSync, crc32 } from 'node:zlib';
import { ApiClient } from '../../test/support/api-client';
import { startRuntimeProcess } from '../../test/support/runtime-process';
import { percentile, round, seededRandom } from './stats';

const ADMIN = { username: 'bench-admin', password: 'bench-admin-password' };
/** A change not searchable after this long counts as lost: the bench stops and says so. */
const GIVE_UP_MS = 30_000;
const WARMUP = 5;
export const LAG_TARGET_P95_MS = 500;

export interface LagOptions {
  edits: number;
  uploads: number;
  /** Documents uploaded at once in each burst (five bursts), 0 for none. */
  burst: number;
  pollMs: number;
}

/** Bursts measured (after one to warm up): each sends `burst` uploads at once. */
const BURSTS = 5;

interface Sample {
  fromAnswerMs: number;
  fromStartMs: number;
  lastMissFromAnswerMs: number;
  requestMs: number;
  polls: number;
}

const stats = (values: number[]) => ({
  p50_ms: round(percentile(values, 50), 1),
  p95_ms: round(percentile(values, 95), 1),
  max_ms: round(Math.max(...values), 1),
});

/** Made-up lowercase words no generated text holds (the tokenizer keeps them whole). */
function wordMaker(seed: number): () => string {
  const random = seededRandom(seed);
  const letters = 'bcdfghjklmnpqrstvwxz';
  return () => `zq${Array.from({ length: 10 }, () => letters[Math.floor(random() * letters.length)]).join('')}`;
}

/** A valid 8x8 RGB PNG of random pixels: a different file (hash) for every upload, which thumbnails can read. */
function tinyPng(random: () => number): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(8, 0);
  header.writeUInt32BE(8, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter method, no interlace
  const rows = Buffer.alloc(8 * (1 + 8 * 3));
  for (let i = 0; i < rows.length; i++) rows[i] = i % (1 + 8 * 3) === 0 ? 0 : Math.floor(random() * 256);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Searches for `word` until document `id` is a hit; `started`/`answered` bound the change's request (performance.now()). */
async function waitSearchable(client: ApiClient, word: string, id: string, started: number, answered: number, pollMs: number, searchTimes: number[]): Promise<Sample> {
  let lastMissSent = answered;
  let polls = 0;
  for (;;) {
    const sent = performance.now();
    const response = await client.get(`/api/search?q=${word}&per_page=5&highlight=false`);
    const done = performance.now();
    searchTimes.push(done - sent);
    polls++;
    if (response.status !== 200) throw new Error(`search ${word}: ${response.status} ${JSON.stringify(response.body)}`);
    const hits = (response.body.results ?? []) as { document_id: string }[];
    if (hits.some((hit) => hit.document_id === id)) {
      return { fromAnswerMs: done - answered, fromStartMs: done - started, lastMissFromAnswerMs: Math.max(0, lastMissSent - answered), requestMs: answered - started, polls };
    }
    lastMissSent = sent;
    if (done - answered > GIVE_UP_MS) throw new Error(`${word} (document ${id}) not searchable ${GIVE_UP_MS} ms after the change answered`);
    if (pollMs > 0) await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

function report(samples: Sample[]) {
  return {
    samples: samples.length,
    request_answered_to_found_ms: stats(samples.map((s) => s.fromAnswerMs)),
    request_sent_to_found_ms: stats(samples.map((s) => s.fromStartMs)),
    request_answered_to_last_miss_sent_ms: stats(samples.map((s) => s.lastMissFromAnswerMs)),
    request_ms: stats(samples.map((s) => s.requestMs)),
    searches_per_sample_mean: round(samples.reduce((sum, s) => sum + s.polls, 0) / samples.length, 1),
  };
}

/** Sends `count` uploads at once (filenames `<word>-<n>.png`) and returns, for each, its answer-to-found lag. */
async function measureBurst(client: ApiClient, word: string, count: number, random: () => number, pollMs: number, searchTimes: number[]): Promise<number[]> {
  const answered = new Map<string, number>();
  const uploads = Array.from({ length: count }, async (_, n) => {
    const id = await client.uploadDocument(`${word}-n${n}.png`, tinyPng(random), { ocr_enabled: 'false' });
    answered.set(id, performance.now());
    return id;
  });
  const found = new Map<string, number>();
  const start = performance.now();
  let all: string[] | null = null;
  void Promise.all(uploads).then((ids) => (all = ids));
  while (all === null || found.size < count) {
    const sent = performance.now();
    const response = await client.get(`/api/search?q=${word}&per_page=100&highlight=false`);
    const done = performance.now();
    searchTimes.push(done - sent);
    if (response.status !== 200) throw new Error(`search ${word}: ${response.status} ${JSON.stringify(response.body)}`);
    for (const hit of (response.body.results ?? []) as { document_id: string }[]) if (!found.has(hit.document_id)) found.set(hit.document_id, done);
    if (done - start > GIVE_UP_MS) throw new Error(`burst ${word}: ${found.size} of ${count} uploads searchable ${GIVE_UP_MS} ms after they were sent`);
    if (pollMs > 0) await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  await Promise.all(uploads);
  // A hit seen before its upload's answer arrived counts as 0: it was searchable when the client learnt of it.
  return [...answered].map(([id, at]) => Math.max(0, found.get(id)! - at));
}

/** Starts a runtime, measures edits then uploads, stops it; the result is the JSON the bench writes. */
export async function measureSearchLag(options: LagOptions) {
  const runtime = await startRuntimeProcess({ env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password } });
  const random = seededRandom(17);
  const nextWord = wordMaker(1717);
  const searchTimes: number[] = [];
  try {
    const admin = await new ApiClient(runtime.baseUrl).login(ADMIN.username, ADMIN.password);
    const documentId = await admin.uploadDocument(`${nextWord()}.png`, tinyPng(random), { ocr_enabled: 'false' });

    const edits: Sample[] = [];
    for (let i = 0; i < options.edits + WARMUP; i++) {
      const word = nextWord();
      const started = performance.now();
      const response = await admin.put(`/api/documents/${documentId}`, { title: word });
      const answered = performance.now();
      if (response.status !== 200) throw new Error(`PUT: ${response.status} ${JSON.stringify(response.body)}`);
      const sample = await waitSearchable(admin, word, documentId, started, answered, options.pollMs, searchTimes);
      if (i >= WARMUP) edits.push(sample);
      if ((i + 1) % 50 === 0) console.log(`  ${i + 1} edits, last ${round(sample.fromAnswerMs)} ms after the answer`);
    }
    console.log(`  edit → searchable: p50 ${round(percentile(edits.map((s) => s.fromAnswerMs), 50))} ms, p95 ${round(percentile(edits.map((s) => s.fromAnswerMs), 95))} ms after the PUT answered`);

    const uploads: Sample[] = [];
    for (let i = 0; i < options.uploads + (options.uploads ? WARMUP : 0); i++) {
      const word = nextWord();
      const started = performance.now();
      const id = await admin.uploadDocument(`${word}.png`, tinyPng(random), { ocr_enabled: 'false' });
      const answered = performance.now();
      const sample = await waitSearchable(admin, word, id, started, answered, options.pollMs, searchTimes);
      if (i >= WARMUP) uploads.push(sample);
    }
    if (uploads.length) {
      console.log(`  upload → searchable: p50 ${round(percentile(uploads.map((s) => s.fromAnswerMs), 50))} ms, p95 ${round(percentile(uploads.map((s) => s.fromAnswerMs), 95))} ms after the upload answered`);
    }

    const burst: number[] = [];
    for (let round_ = 0; options.burst && round_ < BURSTS + 1; round_++) {
      const lags = await measureBurst(admin, nextWord(), options.burst, random, options.pollMs, searchTimes);
      if (round_ > 0) burst.push(...lags);
      console.log(`  burst ${round_ + 1} of ${options.burst} uploads: p95 ${round(percentile(lags, 95))} ms, max ${round(Math.max(...lags))} ms after each upload answered`);
    }

    const editP95 = edits.length ? percentile(edits.map((s) => s.fromAnswerMs), 95) : Number.NaN;
    const burstP95 = burst.length ? percentile(burst, 95) : Number.NaN;
    return {
      poll_interval_ms: options.pollMs,
      search_round_trip_ms: stats(searchTimes),
      edit: edits.length ? report(edits) : null,
      upload: uploads.length ? report(uploads) : null,
      burst: burst.length ? { uploads_at_once: options.burst, bursts: BURSTS, samples: burst.length, upload_answered_to_found_ms: stats(burst) } : null,
      target: {
        change_searchable_p95_ms: LAG_TARGET_P95_MS,
        edit_p95_from_answer_ms: round(editP95),
        burst_p95_from_answer_ms: round(burstP95),
        met: (!edits.length || editP95 <= LAG_TARGET_P95_MS) && (!burst.length || burstP95 <= LAG_TARGET_P95_MS),
      },
    };
  } finally {
    await runtime.stop();
  }
}
