/**
 * OCR: quality and throughput of the local Tesseract engine (shared/adapters/local/tesseract-ocr-engine.ts).
 *
 *   npx tsx bench/ocr.ts            (or: npm run bench:ocr)
 *
 * Quality: character error rate (CER, Levenshtein over whitespace-normalised text, test/support/text-metrics.ts)
 * of linn.png against its ground truth linn.txt; skew.pdf and rotated_skew.pdf have none, so the CER of
 * rotated_skew's text against skew's (the same page turned by 90 degrees) and both word counts are reported.
 * Throughput: pages per minute over multipage.pdf and cardinal.pdf (10 pages), through the engine and through
 * the baseline of plain tesseract: one page at a time, pdftoppm at 300 dpi then `tesseract page out` with the
 * default environment (OpenMP threads on) and default options. The target is a ratio >= 1.8 on 2 cores. The same
 * loop with OMP_THREAD_LIMIT=1 is reported too: the engine's gain over it is what parallel pages alone give.
 * The bench reports; it exits non-zero only when it crashes itself.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TesseractOcrEngine } from '../shared/adapters/local/tesseract-ocr-engine';
import { ApiClient } from '../test/support/api-client';
import { startRuntimeProcess } from '../test/support/runtime-process';
import { characterErrorRate, wordCount } from '../test/support/text-metrics';
import { textPdf } from '../test/support/text-pdf';
import { main as batchMain } from './ocr-batch';
import { turned } from './support/scans';
import { fileInput } from '../test/support/ocr-input';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const CORPUS = path.resolve(REPO_ROOT, '../shared/corpus/ocrmypdf');
const RESULTS_FILE = path.join(REPO_ROOT, 'bench', 'results', 'ocr.json');
const THROUGHPUT_FILES = ['multipage.pdf', 'cardinal.pdf'];
const TARGET_RATIO = 1.8;
const TARGET_LINN_CER = 0.015;
const DPI = 300;

const corpus = async (name: string): Promise<Uint8Array> => new Uint8Array(await readFile(path.join(CORPUS, name)));

const run = (command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> =>
  new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`${command} exited ${code}: ${stderr.slice(-500)}`))));
  });

const pageCount = async (file: string): Promise<number> => {
  const info = await run('pdfinfo', [file]);
  return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? 0);
};

const seconds = (since: number): number => (performance.now() - since) / 1000;

/**
 * The baseline: page after page, one rasterisation then one tesseract with its defaults. `env` lets the same
 * loop run single-threaded, to tell what OMP_THREAD_LIMIT=1 gains from what running pages in parallel gains.
 */
const baseline = async (files: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ pages: number; seconds: number }> => {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'docservice-bench-ocr-'));
  try {
    let pages = 0;
    const started = performance.now();
    for (const name of files) {
      const file = path.join(CORPUS, name);
      const count = await pageCount(file);
      for (let page = 1; page <= count; page++) {
        const root = path.join(directory, `page-${page}`);
        await run('pdftoppm', ['-r', String(DPI), '-gray', '-f', String(page), '-l', String(page), '-singlefile', file, root]);
        await run('tesseract', [`${root}.pgm`, root, '-l', 'eng'], env);
        await rm(`${root}.pgm`);
        pages++;
      }
    }
    return { pages, seconds: seconds(started) };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
};

const engineRun = async (engine: TesseractOcrEngine, files: string[]): Promise<{ pages: number; seconds: number }> => {
  const bytes = await Promise.all(files.map(corpus));
  const started = performance.now();
  let pages = 0;
  for (const file of bytes) {
    const output = await engine.recognize({ ...fileInput(file), mimeType: 'application/pdf', language: 'eng', objectKey: 'bench' });
    pages += output.pages;
  }
  return { pages, seconds: seconds(started) };
};

const read = async (engine: TesseractOcrEngine, name: string, mimeType: string) => {
  const started = performance.now();
  const output = await engine.recognize({ ...fileInput(await corpus(name)), mimeType, language: 'eng', objectKey: 'bench' });
  return { ...output, seconds: seconds(started) };
};

const TARGET_TEXT_LAYER_MS = 300;
const LATENCY_RUNS = 20;

/**
 * Upload to completed, as a client sees it: a 1-page PDF with a text layer uploaded to the local runtime, then
 * GET /api/documents/{id} every 5 ms until it is completed. Sequential runs after two warm-up runs.
 */
const uploadToCompleted = async (): Promise<{ p50: number; p95: number; max: number }> => {
  const credentials = { username: 'bench-admin', password: 'bench-admin-password' };
  const runtime = await startRuntimeProcess({ env: { ADMIN_USERNAME: credentials.username, ADMIN_PASSWORD: credentials.password } });
  try {
    const client = await new ApiClient(runtime.baseUrl).login(credentials.username, credentials.password);
    const once = async (i: number): Promise<number> => {
      const form = new FormData();
      form.append('file', new Blob([textPdf([[`Invoice ${i} for the latency benchmark`, 'Payable within thirty days']])]), `invoice-${i}.pdf`);
      const started = performance.now();
      const { body } = await client.upload('/api/documents/upload', form);
      for (;;) {
        const { body: document } = await client.get(`/api/documents/${body.id}`);
        if (document.status === 'completed') return performance.now() - started;
        if (document.status === 'failed') throw new Error(`the text PDF failed: ${document.failure_reason}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    await once(-1);
    await once(-2);
    const samples: number[] = [];
    for (let i = 0; i < LATENCY_RUNS; i++) samples.push(await once(i));
    samples.sort((a, b) => a - b);
    const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
    return { p50: at(0.5), p95: at(0.95), max: samples.at(-1)! };
  } finally {
    await runtime.stop();
  }
};

const pct = (value: number): string => `${(value * 100).toFixed(2)} %`;

/**
 * The cost of orientation detection: linn.png through plain single-thread tesseract with the default page
 * segmentation and with `--psm 1`, then through the engine upright (one pass expected) and turned by 90, 180
 * and 270 degrees (a second pass expected where the first reads with little confidence; the engine counts
 * them). The CER says whether the page was read upright.
 */
const orientationCost = async (engine: TesseractOcrEngine, png: Uint8Array, truth: string) => {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'docservice-bench-osd-'));
  try {
    const file = path.join(directory, 'linn.png');
    await writeFile(file, png);
    const plain = async (psm: string): Promise<number> => {
      const started = performance.now();
      await run('tesseract', [file, path.join(directory, `out-${psm}`), '-l', 'eng', '--psm', psm], { ...process.env, OMP_THREAD_LIMIT: '1' });
      return seconds(started);
    };
    const psm3Seconds = await plain('3');
    const psm1Seconds = await plain('1');
    const timed = async (bytes: Uint8Array) => {
      const before = engine.stats.orientationPasses;
      const started = performance.now();
      const output = await engine.recognize({ ...fileInput(bytes), mimeType: 'image/png', language: 'eng', objectKey: 'bench' });
      const passes = engine.stats.orientationPasses > before ? 2 : 1;
      return { seconds: seconds(started), cer: characterErrorRate(truth, output.text), passes };
    };
    const upright = await timed(png);
    const turnedRows = [];
    for (const degrees of [90, 180, 270] as const) {
      turnedRows.push({ degrees, ...(await timed(turned(png, degrees))) });
    }
    return { psm3Seconds, psm1Seconds, uprightSeconds: upright.seconds, uprightCer: upright.cer, uprightPasses: upright.passes, turned: turnedRows };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
};

const main = async (): Promise<void> => {
  if (process.argv.includes('--latency-only')) {
    const latency = await uploadToCompleted();
    console.log(`upload to completed: p50 ${latency.p50.toFixed(0)} ms, p95 ${latency.p95.toFixed(0)} ms, max ${latency.max.toFixed(0)} ms`);
    return;
  }
  const cores = os.availableParallelism();
  const engine = new TesseractOcrEngine();

  const truth = await readFile(path.join(CORPUS, 'linn.txt'), 'utf8');
  const linn = await read(engine, 'linn.png', 'image/png');
  const skew = await read(engine, 'skew.pdf', 'application/pdf');
  const rotated = await read(engine, 'rotated_skew.pdf', 'application/pdf');
  const quality = {
    linnCer: characterErrorRate(truth, linn.text),
    linnConfidence: linn.confidence,
    linnSeconds: linn.seconds,
    skewWords: wordCount(skew.text),
    rotatedSkewWords: wordCount(rotated.text),
    rotatedVsSkewCer: characterErrorRate(skew.text, rotated.text),
    skewConfidence: skew.confidence,
    rotatedSkewConfidence: rotated.confidence,
  };

  // The orientation rule (tesseract-page-reader.ts): what a page costs with and without orientation detection.
  const linnPng = await corpus('linn.png');
  const orientation = await orientationCost(engine, linnPng, truth);

  // The engine runs first and the baseline second, both on a warm disk cache (the quality runs read the corpus).
  // One document after the other, as one OCR job after another.
  const fast = await engineRun(engine, THROUGHPUT_FILES);
  const slow = await baseline(THROUGHPUT_FILES);
  const singleThreaded = await baseline(THROUGHPUT_FILES, { ...process.env, OMP_THREAD_LIMIT: '1' });
  const perMinute = (result: { pages: number; seconds: number }): number => (result.pages / result.seconds) * 60;
  const throughput = {
    files: THROUGHPUT_FILES,
    pages: fast.pages,
    engineSeconds: fast.seconds,
    enginePagesPerMinute: perMinute(fast),
    baselineSeconds: slow.seconds,
    baselinePagesPerMinute: perMinute(slow),
    ratio: perMinute(fast) / perMinute(slow),
    singleThreadedBaselineSeconds: singleThreaded.seconds,
    singleThreadedBaselinePagesPerMinute: perMinute(singleThreaded),
    ratioToSingleThreaded: perMinute(fast) / perMinute(singleThreaded),
  };

  console.log('| Measure | Value | Target |');
  console.log('|---|---|---|');
  console.log(`| linn.png CER vs linn.txt | ${pct(quality.linnCer)} | <= ${pct(TARGET_LINN_CER)} |`);
  console.log(`| linn.png confidence | ${quality.linnConfidence.toFixed(3)} | > 0.5 |`);
  console.log(`| skew.pdf words | ${quality.skewWords} | |`);
  console.log(`| rotated_skew.pdf words | ${quality.rotatedSkewWords} | |`);
  console.log(`| rotated_skew.pdf CER vs skew.pdf's text | ${pct(quality.rotatedVsSkewCer)} | |`);
  console.log(
    `| engine, ${throughput.pages} pages (${THROUGHPUT_FILES.join(' + ')}) | ${throughput.enginePagesPerMinute.toFixed(1)} pages/min (${throughput.engineSeconds.toFixed(1)} s) | |`,
  );
  console.log(
    `| plain tesseract, sequential | ${throughput.baselinePagesPerMinute.toFixed(1)} pages/min (${throughput.baselineSeconds.toFixed(1)} s) | |`,
  );
  console.log(
    `| plain tesseract, sequential, OMP_THREAD_LIMIT=1 | ${throughput.singleThreadedBaselinePagesPerMinute.toFixed(1)} pages/min (${throughput.singleThreadedBaselineSeconds.toFixed(1)} s) | |`,
  );
  console.log(`| ratio engine / plain | ${throughput.ratio.toFixed(2)}x | >= ${TARGET_RATIO}x on 2 cores |`);
  console.log(`| ratio engine / plain with OMP_THREAD_LIMIT=1 | ${throughput.ratioToSingleThreaded.toFixed(2)}x | |`);
  console.log(`| linn.png, plain tesseract --psm 3 / --psm 1 (orientation detection) | ${orientation.psm3Seconds.toFixed(2)} s / ${orientation.psm1Seconds.toFixed(2)} s | |`);
  console.log(`| linn.png through the engine, upright | ${orientation.uprightSeconds.toFixed(2)} s, ${orientation.uprightPasses} pass(es), CER ${pct(orientation.uprightCer)} | |`);
  for (const turn of orientation.turned) {
    console.log(`| linn.png turned ${turn.degrees}° through the engine | ${turn.seconds.toFixed(2)} s, ${turn.passes} pass(es), CER ${pct(turn.cer)} | |`);
  }
  const latency = await uploadToCompleted();
  console.log(
    `| upload to completed, 1-page text-layer PDF, local runtime (${LATENCY_RUNS} runs) | p50 ${latency.p50.toFixed(0)} ms, p95 ${latency.p95.toFixed(0)} ms, max ${latency.max.toFixed(0)} ms | < ${TARGET_TEXT_LAYER_MS} ms |`,
  );
  console.log();
  if (latency.p95 >= TARGET_TEXT_LAYER_MS) console.log(`Target missed: upload to completed p95 ${latency.p95.toFixed(0)} ms.`);
  console.log(`Cores: ${cores}. Node ${process.version}, ${os.platform()} ${os.arch()}.`);
  if (throughput.ratio < TARGET_RATIO) console.log(`Target missed: ${throughput.ratio.toFixed(2)}x < ${TARGET_RATIO}x.`);

  await mkdir(path.dirname(RESULTS_FILE), { recursive: true });
  const report = { measuredAt: new Date().toISOString(), cores, node: process.version, quality, orientation, throughput, latency };
  await writeFile(RESULTS_FILE, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`Written: ${path.relative(REPO_ROOT, RESULTS_FILE)}`);

  // The batches against plain tesseract and OCRmyPDF (bench/ocr-batch.ts), unless asked not to.
  if (!process.argv.includes('--no-batch')) await batchMain();
};

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
