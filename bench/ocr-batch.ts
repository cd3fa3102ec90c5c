/**
 * OCR throughput of batches, end to end, against the peers on the same machine in the same session:
 *
 *   npx tsx bench/ocr-batch.ts [--reps=3] [--only=scans|mixed]      (also run by `npm run bench:ocr`)
 *   npx tsx bench/ocr-batch.ts --memory [--scans=500] [--settle=120] (peak RSS with 500 scans queued)
 *   npx tsx bench/ocr-batch.ts --one[=5]                             (where one document's time goes)
 *
 * Workloads: 20 one-page scans made in code (bench/support/scans.ts: 2000x700 PNG at 300 dpi, three fonts,
 * a slight turn, noise; 840 words of ground truth), and 5 PDFs of the OCRmyPDF corpus, 13 pages (multipage,
 * cardinal, skew, c02-22, and linn.png wrapped in a PDF at 300 dpi).
 *
 * Contenders, each given the whole batch at once:
 * - `tesseract x2`: the hardware's limit. Two single-thread `tesseract` processes (OMP_THREAD_LIMIT=1, default
 *   page segmentation) take the next page as they finish; PDF pages are drawn by pdftoppm at 300 dpi first.
 * - `ocrmypdf`: OCRmyPDF with its defaults and `-j 2`, two files at once, `--sidecar` for the text, `--force-ocr`
 *   (every page read, as the service reads them).
 * - `engine`: `TesseractOcrEngine` with the local runtime's limits in this process, every file at once.
 * - `service`: the local runtime (`bin/local.ts`) as a child process; every file uploaded at once through
 *   `POST /api/documents/upload`, timed from the first upload sent to the last job's `finished_at`.
 *
 * Runs are interleaved (each repetition runs every contender once, in a rotated order), so load from other work
 * on the machine falls on all of them alike; each run also records how many cores other processes used.
 * Quality per contender: word recall over the scans (whole words, case ignored), CER of linn against linn.txt.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as mupdf from 'mupdf';
import { TesseractOcrEngine } from '../shared/adapters/local/tesseract-ocr-engine';
import { LOCAL_OCR_LIMITS } from '../shared/local/composition';
import { ApiClient } from '../test/support/api-client';
import { startRuntimeProcess, type RuntimeProcess } from '../test/support/runtime-process';
import { characterErrorRate } from '../test/support/text-metrics';
import { eventually } from '../test/support/until';
import { ChannelClient, type ChannelMessage } from '../test/support/ws-client';
import { cpuByPart, rssMb, treeRssMb, watchNoise, type Noise } from './support/machine';
import { generateScans, wordsFound } from './support/scans';
import { round } from './support/stats';
import { fileInput } from '../test/support/ocr-input';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const CORPUS = path.resolve(REPO_ROOT, '../shared/corpus/ocrmypdf');
const RESULTS_DIR = path.join(REPO_ROOT, 'bench', 'results');
const DPI = 300;
const CREDENTIALS = { username: 'bench-admin', password: 'bench-admin-password' };

// ---- inputs ------------------------------------------------------------------------------------------------

interface InputFile {
  name: string;
  bytes: Uint8Array;
  mimeType: string;
  pages: number;
  /** Ground truth: the words of a generated scan, or the text of linn. */
  words?: string[];
  truth?: string;
}

interface Workload {
  name: 'scans' | 'mixed';
  label: string;
  files: InputFile[];
  pages: number;
}

/** An image wrapped in a one-page PDF whose page is the image at `dpi`, as a scanner's PDF is. */
const imagePdf = (png: Uint8Array, dpi: number): Uint8Array => {
  const document = new mupdf.PDFDocument();
  const image = new mupdf.Image(png);
  const width = (image.getWidth() * 72) / dpi;
  const height = (image.getHeight() * 72) / dpi;
  const resources = document.addObject({ XObject: { Im0: document.addImage(image) } });
  const contents = `q ${width} 0 0 ${height} 0 0 cm /Im0 Do Q`;
  document.insertPage(-1, document.addPage([0, 0, width, height], 0, resources, contents));
  const bytes = document.saveToBuffer('compress').asUint8Array().slice();
  document.destroy();
  return bytes;
};

const pdfPages = (bytes: Uint8Array): number => {
  const document = mupdf.Document.openDocument(bytes, 'application/pdf');
  const pages = document.countPages();
  document.destroy();
  return pages;
};

async function workloads(): Promise<Workload[]> {
  const scans = generateScans(20).map((scan): InputFile => ({ name: scan.name, bytes: scan.png, mimeType: 'image/png', pages: 1, words: scan.words }));
  const linnTruth = await readFile(path.join(CORPUS, 'linn.txt'), 'utf8');
  const mixed: InputFile[] = [];
  for (const name of ['multipage.pdf', 'cardinal.pdf', 'skew.pdf', 'c02-22.pdf']) {
    const bytes = new Uint8Array(await readFile(path.join(CORPUS, name)));
    mixed.push({ name, bytes, mimeType: 'application/pdf', pages: pdfPages(bytes) });
  }
  const linn = imagePdf(new Uint8Array(await readFile(path.join(CORPUS, 'linn.png'))), DPI);
  mixed.push({ name: 'linn.pdf', bytes: linn, mimeType: 'application/pdf', pages: 1, truth: linnTruth });
  const total = (files: InputFile[]) => files.reduce((sum, file) => sum + file.pages, 0);
  return [
    { name: 'scans', label: `${scans.length} one-page scans (2000x700 PNG)`, files: scans, pages: total(scans) },
    { name: 'mixed', label: `${mixed.length} mixed PDFs, ${total(mixed)} pages`, files: mixed, pages: total(mixed) },
  ];
}

// ---- running things ----------------------------------------------------------------------------------------

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

/** Runs `tasks` with at most `width` at once, each taking the next as it finishes. */
async function inParallel<T>(width: number, tasks: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}

const SINGLE_THREAD = { ...process.env, OMP_THREAD_LIMIT: '1' };

/** What a contender read: the text of each file, by name. */
type Texts = Map<string, string>;

interface Contender {
  name: string;
  label: string;
  /** Reads the whole workload; resolves with the texts and, when it knows better than the caller, the seconds. */
  read(workload: Workload, directory: string): Promise<{ texts: Texts; seconds?: number; cpu?: Record<string, number> }>;
}

const tesseractPair: Contender = {
  name: 'tesseract',
  label: 'two single-thread `tesseract` (the limit)',
  async read(workload, directory) {
    const pages = workload.files.flatMap((file, f) => Array.from({ length: file.pages }, (_, p) => ({ file, f, page: p + 1 })));
    const texts = await inParallel(
      2,
      pages.map(({ file, f, page }) => async () => {
        const source = path.join(directory, 'in', file.name);
        const root = path.join(directory, `t-${f}-${page}`);
        if (file.mimeType !== 'application/pdf') {
          await run('tesseract', [source, root, '-l', 'eng'], SINGLE_THREAD);
        } else {
          await run('pdftoppm', ['-r', String(DPI), '-gray', '-f', String(page), '-l', String(page), '-singlefile', source, root]);
          await run('tesseract', [`${root}.pgm`, root, '-l', 'eng', '--dpi', String(DPI)], SINGLE_THREAD);
          await rm(`${root}.pgm`);
        }
        const text = await readFile(`${root}.txt`, 'utf8');
        await rm(`${root}.txt`);
        return { name: file.name, page, text };
      }),
    );
    const byFile: Texts = new Map();
    for (const { name, text } of texts) byFile.set(name, `${byFile.get(name) ?? ''}${text}\n`);
    return { texts: byFile };
  },
};

const ocrmypdf: Contender = {
  name: 'ocrmypdf',
  label: 'OCRmyPDF `-j 2`, two files at once',
  async read(workload, directory) {
    const texts = await inParallel(
      2,
      workload.files.map((file, f) => async () => {
        const sidecar = path.join(directory, `o-${f}.txt`);
        const output = path.join(directory, `o-${f}.pdf`);
        // --force-ocr: multipage.pdf carries a little text on a page, which OCRmyPDF refuses by default; the
        // service reads every page of it (too little text for a text layer), so OCRmyPDF must too.
        await run('ocrmypdf', ['-q', '-j', '2', '-l', 'eng', '--force-ocr', '--sidecar', sidecar, path.join(directory, 'in', file.name), output]);
        const text = await readFile(sidecar, 'utf8');
        await rm(sidecar);
        await rm(output);
        return [file.name, text] as const;
      }),
    );
    return { texts: new Map(texts) };
  },
};

const engineContender = (engine: TesseractOcrEngine): Contender => ({
  name: 'engine',
  label: 'our engine alone (in process)',
  async read(workload) {
    const outputs = await Promise.all(
      workload.files.map((file) => engine.recognize({ ...fileInput(file.bytes), mimeType: file.mimeType, language: 'eng', objectKey: file.name })),
    );
    return { texts: new Map(workload.files.map((file, i) => [file.name, outputs[i]!.text])) };
  },
});

interface QueueJob {
  document_id: string;
  status: string;
  finished_at: string | null;
}

/** Every job on the queue listing with the given status (the P list body, 100 a page). */
async function jobs(client: ApiClient, status: string): Promise<QueueJob[]> {
  const all: QueueJob[] = [];
  for (let page = 1; ; page++) {
    const { body } = await client.get(`/api/ocr/queue?status=${status}&per_page=100&page=${page}`);
    const items = body.data as QueueJob[];
    all.push(...items);
    if (items.length < 100) return all;
  }
}

/**
 * Waits for the `ocr_progress` event that ends each document's OCR (completed or failed), as a client of the
 * channel would: polling the API instead would spend the runtime's CPU on the bench's own requests, beside the
 * OCR it measures.
 */
async function ended(channel: ChannelClient, ids: string[], timeoutMs = 30 * 60_000): Promise<void> {
  const end = (id: string) => (m: ChannelMessage) =>
    m.type === 'ocr_progress' && m.data['document_id'] === id && (m.data['status'] === 'completed' || m.data['status'] === 'failed');
  await Promise.all(ids.map((id) => channel.next(end(id), timeoutMs)));
}

const uploadAll = (client: ApiClient, files: InputFile[]): Promise<string[]> =>
  Promise.all(files.map((file) => client.uploadDocument(file.name, file.bytes)));

const serviceContender = (service: () => Promise<{ client: ApiClient; process: RuntimeProcess }>): Contender => ({
  name: 'service',
  label: 'our service, upload → completed',
  async read(workload) {
    const { client, process: runtime } = await service();
    const channel = await ChannelClient.authenticated(runtime.baseUrl, client.token!);
    const cpuBefore = cpuByPart(runtime.child.pid!);
    const started = Date.now();
    const ids = await uploadAll(client, workload.files);
    await ended(channel, ids).finally(() => channel.close());
    const finished = new Map((await jobs(client, 'completed')).map((job) => [job.document_id, Date.parse(job.finished_at!)]));
    const missing = ids.filter((id) => !finished.has(id));
    if (missing.length) throw new Error(`${missing.length} documents did not complete`);
    const last = Math.max(...ids.map((id) => finished.get(id)!));
    const cpuAfter = cpuByPart(runtime.child.pid!);
    const cpu = Object.fromEntries(Object.entries(cpuAfter).map(([part, seconds]) => [part, round(seconds - (cpuBefore[part] ?? 0), 2)]));
    const texts: Texts = new Map();
    for (const [i, id] of ids.entries()) texts.set(workload.files[i]!.name, (await client.get(`/api/documents/${id}`)).body.content as string);
    return { texts, seconds: (last - started) / 1000, cpu };
  },
});

// ---- the comparison ----------------------------------------------------------------------------------------

interface Sample {
  workload: Workload['name'];
  contender: string;
  rep: number;
  seconds: number;
  pagesPerMinute: number;
  wordRecall?: number;
  linnCer?: number;
  noise: Noise;
  /** The service's CPU seconds during the run, by part (bench/support/machine.ts cpuByPart). */
  cpu?: Record<string, number>;
}

const quality = (workload: Workload, texts: Texts): { wordRecall?: number; linnCer?: number } => {
  const withWords = workload.files.filter((file) => file.words);
  const linn = workload.files.find((file) => file.truth);
  const expected = withWords.reduce((sum, file) => sum + file.words!.length, 0);
  const found = withWords.reduce((sum, file) => sum + wordsFound(file.words!, texts.get(file.name) ?? ''), 0);
  return {
    ...(expected ? { wordRecall: found / expected } : {}),
    ...(linn ? { linnCer: characterErrorRate(linn.truth!, texts.get(linn.name) ?? '') } : {}),
  };
};

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Installs Debian's ocrmypdf when it is missing (the bench runs as a user who may use apt-get). */
async function ensureOcrmypdf(): Promise<void> {
  if (await run('ocrmypdf', ['--version']).then(() => true, () => false)) return;
  console.log('ocrmypdf is missing: apt-get install -y ocrmypdf');
  await run('apt-get', ['install', '-y', 'ocrmypdf']).catch(async () => {
    await run('apt-get', ['update']);
    await run('apt-get', ['install', '-y', 'ocrmypdf']);
  });
}

export async function compareBatches(options: { reps: number; only?: Workload['name'] }): Promise<{ samples: Sample[]; table: string }> {
  await ensureOcrmypdf();
  const loads = (await workloads()).filter((workload) => !options.only || workload.name === options.only);
  const engine = new TesseractOcrEngine(LOCAL_OCR_LIMITS);
  let runtime: { process: RuntimeProcess; client: ApiClient } | undefined;
  const service = async () => {
    if (!runtime) {
      const process = await startRuntimeProcess({ env: { ADMIN_USERNAME: CREDENTIALS.username, ADMIN_PASSWORD: CREDENTIALS.password } });
      runtime = { process, client: await new ApiClient(process.baseUrl).login(CREDENTIALS.username, CREDENTIALS.password) };
    }
    return runtime;
  };
  const contenders = [tesseractPair, ocrmypdf, engineContender(engine), serviceContender(service)];
  const samples: Sample[] = [];
  try {
    await service(); // started before the first run, so no run pays for the start
    for (const workload of loads) {
      const directory = await mkdtemp(path.join(os.tmpdir(), 'docservice-bench-ocr-batch-'));
      try {
        await mkdir(path.join(directory, 'in'));
        for (const file of workload.files) await writeFile(path.join(directory, 'in', file.name), file.bytes);
        for (let rep = 1; rep <= options.reps; rep++) {
          const order = contenders.map((_, i) => contenders[(i + rep - 1) % contenders.length]!);
          for (const contender of order) {
            const noise = watchNoise();
            const started = performance.now();
            const { texts, seconds: own, cpu } = await contender.read(workload, directory);
            const seconds = own ?? (performance.now() - started) / 1000;
            const sample: Sample = {
              workload: workload.name,
              contender: contender.name,
              rep,
              seconds,
              pagesPerMinute: (workload.pages / seconds) * 60,
              ...quality(workload, texts),
              noise: noise.stop(),
              ...(cpu ? { cpu } : {}),
            };
            samples.push(sample);
            console.log(
              `${workload.name} rep ${rep} ${contender.name}: ${round(sample.seconds, 2)} s, ${round(sample.pagesPerMinute)} pages/min` +
                `${sample.wordRecall !== undefined ? `, recall ${round(sample.wordRecall * 100, 2)} %` : ''}` +
                `${sample.linnCer !== undefined ? `, linn CER ${round(sample.linnCer * 100, 2)} %` : ''}` +
                `, load ${round(sample.noise.loadAtStart)}, other work ${round(sample.noise.otherCores, 2)} cores` +
                `${sample.cpu ? `, service CPU s ${JSON.stringify(sample.cpu)}` : ''}`,
            );
          }
        }
      } finally {
        await rm(directory, { recursive: true, force: true });
      }
    }
  } finally {
    await runtime?.process.stop();
  }
  return { samples, table: batchTable(loads, contenders, samples) };
}

function batchTable(loads: Workload[], contenders: Contender[], samples: Sample[]): string {
  const rate = (workload: string, contender: string) =>
    median(samples.filter((s) => s.workload === workload && s.contender === contender).map((s) => s.pagesPerMinute));
  const lines = [
    `| workload | ${contenders.map((c) => c.label).join(' | ')} | service / limit | service / OCRmyPDF |`,
    `|---|${contenders.map(() => '---:').join('|')}|---:|---:|`,
  ];
  for (const workload of loads) {
    const rates = contenders.map((c) => rate(workload.name, c.name));
    const service = rate(workload.name, 'service');
    lines.push(
      `| ${workload.label} | ${rates.map((r) => round(r)).join(' | ')} | ${round(service / rate(workload.name, 'tesseract'), 2)}x | ${round(service / rate(workload.name, 'ocrmypdf'), 2)}x |`,
    );
  }
  lines.push('', '| workload | contender | word recall (min) | linn CER (max) | other work on the machine, cores (median, max) |', '|---|---|---:|---:|---:|');
  for (const workload of loads) {
    for (const contender of contenders) {
      const mine = samples.filter((s) => s.workload === workload.name && s.contender === contender.name);
      const recall = mine.flatMap((s) => (s.wordRecall === undefined ? [] : [s.wordRecall]));
      const cer = mine.flatMap((s) => (s.linnCer === undefined ? [] : [s.linnCer]));
      const other = mine.map((s) => s.noise.otherCores);
      lines.push(
        `| ${workload.name} | ${contender.name} | ${recall.length ? `${round(Math.min(...recall) * 100, 2)} %` : ''} | ${cer.length ? `${round(Math.max(...cer) * 100, 2)} %` : ''} | ${round(median(other), 2)}, ${round(Math.max(...other), 2)} |`,
      );
    }
  }
  return lines.join('\n');
}

// ---- memory with a long queue ------------------------------------------------------------------------------

/**
 * Uploads `count` scans (the 20 generated ones over and over) as fast as the API takes them, with 8 uploads in
 * flight, and samples the runtime's RSS (its own process, and its tree: DynamoDB Local's JVM and the tesseract
 * processes) every 250 ms until the queue is drained or `settleSeconds` after the last upload.
 */
export async function queuedMemory(count: number, settleSeconds: number): Promise<Record<string, number>> {
  const scans = generateScans(20);
  const runtime = await startRuntimeProcess({ env: { ADMIN_USERNAME: CREDENTIALS.username, ADMIN_PASSWORD: CREDENTIALS.password } });
  try {
    const client = await new ApiClient(runtime.baseUrl).login(CREDENTIALS.username, CREDENTIALS.password);
    const pid = runtime.child.pid!;
    const peak = { runtimeMb: rssMb(pid), treeMb: treeRssMb(pid), pendingMax: 0 };
    const idle = { ...peak };
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak.runtimeMb = Math.max(peak.runtimeMb, rssMb(pid));
        peak.treeMb = Math.max(peak.treeMb, treeRssMb(pid));
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();
    const started = performance.now();
    await inParallel(
      8,
      Array.from({ length: count }, (_, i) => () => client.uploadDocument(`queued-${i}.png`, scans[i % scans.length]!.png)),
    );
    const uploadedSeconds = (performance.now() - started) / 1000;
    const status = async () => (await client.get('/api/ocr/queue/status')).body as { pending: number; processing: number };
    peak.pendingMax = (await status()).pending;
    // Drained, or `settleSeconds` more with the queue full: the peak comes while jobs are queued, not at the end.
    const deadline = performance.now() + settleSeconds * 1000;
    let left = await status();
    while (left.pending + left.processing > 0 && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      left = await status();
    }
    const seconds = (performance.now() - started) / 1000;
    sampling = false;
    await sampler;
    return {
      scans: count,
      uploadedSeconds: round(uploadedSeconds),
      watchedSeconds: round(seconds),
      stillQueuedAtEnd: left.pending + left.processing,
      idleRuntimeMb: round(idle.runtimeMb),
      idleTreeMb: round(idle.treeMb),
      peakRuntimeMb: round(peak.runtimeMb),
      peakTreeMb: round(peak.treeMb),
      pendingAfterUploads: peak.pendingMax,
    };
  } finally {
    await runtime.stop();
  }
}

// ---- one document, step by step -----------------------------------------------------------------------------

/**
 * Where the time of one document goes, upload to completed, alone on a started runtime: the upload request as
 * the client sees it, then the worker's own account (`LOG_LEVEL=debug`: shared/local/ocr-worker-timings.ts):
 * the wait on the queue and each port call. `runs` documents one after the other; medians.
 */
export async function oneDocument(runs: number): Promise<{ rows: [string, number, number][]; table: string }> {
  const [scan] = generateScans(1);
  // Its longest word: the search finds the scan by its text, which only the OCR run gives it.
  const word = scan!.words.reduce((longest, next) => (next.length > longest.length ? next : longest));
  const runtime = await startRuntimeProcess({
    env: { ADMIN_USERNAME: CREDENTIALS.username, ADMIN_PASSWORD: CREDENTIALS.password, LOG_LEVEL: 'debug', LOG_FORMAT: 'json' },
  });
  let channel: ChannelClient | undefined;
  try {
    const client = await new ApiClient(runtime.baseUrl).login(CREDENTIALS.username, CREDENTIALS.password);
    channel = await ChannelClient.authenticated(runtime.baseUrl, client.token!);
    const samples: Map<string, number>[] = [];
    const counts = new Map<string, number>();
    for (let i = 0; i < runs + 1; i++) {
      const started = Date.now();
      const id = await client.uploadDocument(`one-${i}.png`, scan!.png);
      const uploaded = Date.now();
      await ended(channel, [id]);
      const eventAt = Date.now();
      await eventually(
        () => client.get(`/api/search?q=${encodeURIComponent(word)}&per_page=100`),
        (response) => (response.body.results ?? []).some((hit: { document_id: string }) => hit.document_id === id),
        30_000,
        `document ${id} found by its text`,
      );
      const searchableAt = Date.now();
      const job = (await jobs(client, 'completed')).find((j) => j.document_id === id)!;
      const line = runtime
        .output()
        .split('\n')
        .filter((l) => l.includes('ocr-worker: timings') && l.includes(id))
        .pop();
      if (!line || i === 0) continue; // the first document warms the runtime up
      const timings = JSON.parse(line) as { queue_wait_ms: number; handler_ms: number; calls: Record<string, { ms: number; count: number }> };
      const sample = new Map<string, number>([
        ['upload request (client: multipart, S3 put, DynamoDB, SQS send)', uploaded - started],
        ['upload → completed (finished_at)', Date.parse(job.finished_at!) - started],
        ['queue wait (SQS sent → handler called)', timings.queue_wait_ms],
        ['worker handler, whole delivery', timings.handler_ms],
        // Behind the job, from the table's stream (issue 17): the `events` and `indexer` consumers.
        ['closing ocr_progress received by the client, after finished_at', eventAt - Date.parse(job.finished_at!)],
        ['found by a word of its text, after finished_at (searches 25 ms apart)', searchableAt - Date.parse(job.finished_at!)],
      ]);
      for (const [name, { ms, count }] of Object.entries(timings.calls)) {
        sample.set(name, ms);
        counts.set(name, count);
      }
      samples.push(sample);
    }
    const names = [...new Set(samples.flatMap((sample) => [...sample.keys()]))];
    const rows = names.map((name): [string, number, number] => [name, median(samples.map((sample) => sample.get(name) ?? 0)), counts.get(name) ?? 1]);
    const table = ['| step (one 2000x700 scan, alone) | median ms | calls |', '|---|---:|---:|', ...rows.map(([name, ms, count]) => `| ${name} | ${round(ms)} | ${count} |`)].join('\n');
    return { rows, table };
  } finally {
    await channel?.close();
    await runtime.stop();
  }
}

// ---- command line ------------------------------------------------------------------------------------------

const flag = (name: string): string | undefined =>
  process.argv.find((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`))?.split('=')[1] ?? (process.argv.includes(`--${name}`) ? '' : undefined);

export async function main(): Promise<void> {
  await mkdir(RESULTS_DIR, { recursive: true });
  const meta = { measuredAt: new Date().toISOString(), cores: os.availableParallelism(), node: process.version };
  if (flag('memory') !== undefined) {
    const result = await queuedMemory(Number(flag('scans') || 500), Number(flag('settle') || 120));
    console.log(result);
    await writeFile(path.join(RESULTS_DIR, 'ocr-queued-memory.json'), `${JSON.stringify({ ...meta, ...result }, null, 2)}\n`);
    return;
  }
  if (flag('one') !== undefined) {
    const result = await oneDocument(Number(flag('one') || 5));
    console.log(result.table);
    await writeFile(path.join(RESULTS_DIR, 'ocr-one-document.json'), `${JSON.stringify({ ...meta, ...result }, null, 2)}\n`);
    return;
  }
  const only = flag('only') as Workload['name'] | undefined;
  const { samples, table } = await compareBatches({ reps: Number(flag('reps') || 3), ...(only ? { only } : {}) });
  console.log();
  console.log(table);
  const file = path.join(RESULTS_DIR, only ? `ocr-batch.${only}.json` : 'ocr-batch.json');
  await writeFile(file, `${JSON.stringify({ ...meta, samples, table }, null, 2)}\n`);
  console.log(`Written: ${path.relative(REPO_ROOT, file)}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
