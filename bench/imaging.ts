/**
 * Imaging before and after an engine change (issue 18): the text layers, thumbnails and hostile files through
 * the same adapters the service wires (`shared/container/kit/imaging.ts`), in this process, on the pool's workers.
 *
 *   npx tsx bench/imaging.ts
 *   npx tsx bench/imaging.ts --record             also writes the text layers as the baseline to compare with
 *
 * 1. Text layers: every PDF of ../shared/corpus/ocrmypdf, read as the OCR worker reads them. Its words (the text
 *    split on whitespace) are compared with `bench/baselines/text-layer-words.json`, recorded with `--record` by
 *    the engine before (MuPDF): same words in the same order, or the words missing and added. Target: the image
 *    pages of `hugemono.pdf` and `enormous.pdf` are found within 2 s, since extracting text decodes no image.
 * 2. Thumbnails: the first page of every PDF and every PNG of the corpus at 256x256 (PNG output), 5 renders each
 *    after one warm-up: time per thumbnail, the output decoded (a full PNG decode: header, inflate, row filters),
 *    and its aspect ratio against the source's. Target: `enormous.pdf` (one 9000x9000 RGB scan) renders, every
 *    time, within the renderer's default time limit (8 s), the bound the integration test no longer times.
 * 3. Hostile files (test/support/hostile-files.ts): each through a thumbnail render and a text-layer read, with
 *    the outcome and how long it took to fail; the process's peak RSS (VmHWM) at the end.
 *
 * Prints Markdown and writes `bench/results/imaging.json`. It exits non-zero when a text layer differs from the
 * baseline, a thumbnail does not decode or loses its aspect ratio, or a hostile file is not refused within the
 * job's timeout plus 2 s.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { inflateSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { PdfTextLayerReader as TextLayerReaderImpl } from '../shared/adapters/imaging/pdf-text-layer-reader';
import { ImagingPool } from '../shared/adapters/imaging/worker-pool';
import { decidePage } from '../shared/domain/ocr/page-texts';
import { imagingServices } from '../shared/container/kit/imaging';
import { hostileFiles } from '../test/support/hostile-files';
import { textPdf } from '../test/support/text-pdf';
import { percentile, round } from './support/stats';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const CORPUS = path.resolve(REPO_ROOT, '..', 'shared', 'corpus', 'ocrmypdf');
const BASELINE_FILE = path.join(REPO_ROOT, 'bench', 'baselines', 'text-layer-words.json');
const RESULTS_FILE = path.join(REPO_ROOT, 'bench', 'results', 'imaging.json');
const RECORD = process.argv.includes('--record');
const BOX = { width: 256, height: 256 };
const RENDERS = 5;
/** Text layers of these files (one image page each) are read within {@link TEXT_LAYER_QUICK_MS}: no image is decoded. */
const QUICK_TEXT_LAYERS = ['hugemono.pdf', 'enormous.pdf'];
const TEXT_LAYER_QUICK_MS = 2000;
/** The renderer's default time limit: a render past it is stopped and the file refused. */
const THUMBNAIL_TIMEOUT_MS = 8000;
/** The files that must render within {@link THUMBNAIL_TIMEOUT_MS} on every try (none of the others is near it). */
const WITHIN_TIMEOUT = ['enormous.pdf'];
/** The renderer's and the reader's default timeouts, plus slack for a worker's restart. */
const THUMBNAIL_BOUND_MS = THUMBNAIL_TIMEOUT_MS + 2000;
const TEXT_LAYER_BOUND_MS = 60_000 + 2000;

const engine = (): string => {
  const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  return Object.keys(manifest.dependencies).includes('mupdf') ? 'mupdf' : 'pdfjs-dist + @napi-rs/canvas';
};

const wordsOf = (text: string): string[] => text.split(/\s+/).filter(Boolean);

/** Words of `a` missing from `b` (as a multiset), at most `limit` of them. */
const missing = (a: readonly string[], b: readonly string[], limit = 12): { count: number; sample: string[] } => {
  const counts = new Map<string, number>();
  for (const word of b) counts.set(word, (counts.get(word) ?? 0) + 1);
  const gone: string[] = [];
  for (const word of a) {
    const left = counts.get(word) ?? 0;
    if (left > 0) counts.set(word, left - 1);
    else gone.push(word);
  }
  return { count: gone.length, sample: gone.slice(0, limit) };
};

/** Decodes a PNG fully (8-bit RGB/RGBA/grey, no interlace), as a viewer would; throws when it is not one. */
const decodePng = (bytes: Uint8Array): { width: number; height: number } => {
  const buffer = Buffer.from(bytes);
  if (buffer.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let at = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  while (at < buffer.length) {
    const length = buffer.readUInt32BE(at);
    const type = buffer.toString('latin1', at + 4, at + 8);
    const body = buffer.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      if (body[8] !== 8 || body[12] !== 0) throw new Error('unexpected bit depth or interlace');
      channels = ({ 0: 1, 2: 3, 4: 2, 6: 4 } as Record<number, number>)[body[9]!] ?? 0;
      if (!channels) throw new Error(`unexpected colour type ${body[9]}`);
    }
    if (type === 'IDAT') data.push(body);
    if (type === 'IEND') break;
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels + 1;
  if (raw.length !== stride * height) throw new Error(`image data is ${raw.length} bytes, not ${stride * height}`);
  for (let row = 0; row < height; row++) if (raw[row * stride]! > 4) throw new Error(`row ${row} has filter ${raw[row * stride]}`);
  return { width, height };
};

/** The page size of a PDF's first page from pdfinfo (poppler, a separate tool), or a PNG's header. */
const sourceSize = async (file: string, bytes: Buffer): Promise<{ width: number; height: number }> => {
  if (file.endsWith('.png')) return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  const { execFileSync } = await import('node:child_process');
  const info = execFileSync('pdfinfo', ['-f', '1', '-l', '1', file], { encoding: 'utf8' });
  const match = /Page\s+1 size:\s+([\d.]+) x ([\d.]+)/.exec(info);
  const rotation = Number(/Page\s+1 rot:\s+(\d+)/.exec(info)?.[1] ?? 0);
  if (!match) throw new Error(`pdfinfo gave no page size for ${file}`);
  const [w, h] = [Number(match[1]), Number(match[2])];
  return rotation % 180 === 90 ? { width: h, height: w } : { width: w, height: h };
};

/**
 * PDFs that do carry text layers, since the corpus's are scans: the corpus's PNGs made into searchable PDFs by
 * Tesseract (`tesseract <png> <out> pdf`: the image with an invisible OCR text layer, as OCRmyPDF writes them),
 * cached under bench/results/, and a 3-page PDF of Helvetica text from test/support/text-pdf.ts.
 */
const textLayerPdfs = async (): Promise<(readonly [string, string])[]> => {
  const dir = path.join(REPO_ROOT, 'bench', 'results', 'text-layer-pdfs');
  await mkdir(dir, { recursive: true });
  const made: (readonly [string, string])[] = [];
  const { execFileSync } = await import('node:child_process');
  for (const png of ['linn.png', 'typewriter.png', 'baiona.png']) {
    const base = path.join(dir, png.replace(/\.png$/, ''));
    if (!existsSync(`${base}.pdf`)) execFileSync('tesseract', [path.join(CORPUS, png), base, '-l', 'eng', 'pdf'], { stdio: 'ignore' });
    made.push([`${png} as a Tesseract PDF`, `${base}.pdf`]);
  }
  const generated = path.join(dir, 'text-pdf-3-pages.pdf');
  await writeFile(
    generated,
    textPdf([
      ['Invoice 2024-0117 from Example GmbH, Hauptstrasse 5, 10115 Berlin.', 'Total due: EUR 1,234.56 (incl. 19 % VAT).'],
      ['Second page: terms and conditions apply; payment within 30 days.', 'Ligatures: office, affine, flow. Quotes: "a" (b) [c].'],
      ['Third page, with a line that is long enough to wrap in a narrow column of text if it were set so.'],
    ]),
  );
  made.push(['text-pdf 3 pages (test/support)', generated]);
  return made;
};

const peakRssMb = async (): Promise<number> => {
  const status = await readFile('/proc/self/status', 'utf8');
  return round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
};

const timed = async <T>(work: () => Promise<T>): Promise<{ ms: number; value?: T; error?: string }> => {
  const started = performance.now();
  try {
    const value = await work();
    return { ms: performance.now() - started, value };
  } catch (error) {
    return { ms: performance.now() - started, error: error instanceof Error ? error.message : String(error) };
  }
};

async function main(): Promise<void> {
  const { thumbnails, textLayer } = imagingServices({ IMAGING_WORKERS: '2' }, { prestart: true });
  const files = (await readdir(CORPUS)).sort();
  const failures: string[] = [];

  // 1. Text layers.
  // The corpus is mostly scans: the per-page rule (decidePage) keeps none of their pages, so the words are also
  // compared as read on every page, which is every glyph the engine finds ("no minimum").
  const rawPool = new ImagingPool({ size: 1 });
  const rawReader = new TextLayerReaderImpl({ pool: rawPool });
  const texts: Record<string, { pages: number; words: string[] } | null | { error: string }> = {};
  for (const [name, file] of [...files.filter((file) => file.endsWith('.pdf')).map((file) => [file, path.join(CORPUS, file)] as const), ...(await textLayerPdfs())]) {
    for (const [key, reader, all] of [[name, textLayer, false], [`${name} (no minimum)`, rawReader, true]] as const) {
      const result = await timed(() => reader.read(new Uint8Array(readFileSync(file))));
      if (!all && QUICK_TEXT_LAYERS.includes(name)) {
        console.log(`${name}: text layer read in ${round(result.ms)} ms (target: within ${TEXT_LAYER_QUICK_MS} ms).`);
        if (result.ms > TEXT_LAYER_QUICK_MS) failures.push(`text layer of ${name} took ${round(result.ms)} ms`);
      }
      // The service's reading: the document's text when no page needs OCR (every page kept or blank), as before.
      const kept = result.value && (all || !result.value.pages.map(decidePage).includes('ocr')) ? result.value.pages : null;
      texts[key] =
        result.error !== undefined ? { error: result.error } : kept ? { pages: kept.length, words: wordsOf(kept.map((page) => page.text).join('\n\f\n')) } : null;
    }
  }
  await rawPool.close();
  let baseline: typeof texts | undefined;
  if (RECORD) {
    await mkdir(path.dirname(BASELINE_FILE), { recursive: true });
    await writeFile(BASELINE_FILE, `${JSON.stringify({ engine: engine(), recordedAt: new Date().toISOString(), texts }, null, 1)}\n`);
    console.log(`Recorded the text layers as the baseline: ${path.relative(REPO_ROOT, BASELINE_FILE)}`);
  }
  try {
    baseline = (JSON.parse(await readFile(BASELINE_FILE, 'utf8')) as { texts: typeof texts }).texts;
  } catch {
    console.log('No baseline to compare with (run with --record first).');
  }
  const textRows = Object.entries(texts).map(([name, now]) => {
    const before = baseline?.[name];
    const describe = (value: typeof now | undefined): string =>
      value === undefined ? 'n/a' : value === null ? 'no text layer (null)' : 'error' in value ? `refused: ${value.error.slice(0, 60)}` : `${value.pages} p., ${value.words.length} words`;
    let verdict = 'n/a';
    if (baseline) {
      const same = JSON.stringify(before === undefined ? 'missing' : before) === JSON.stringify(now);
      if (same) verdict = 'same';
      else if (before && now && 'words' in before && 'words' in now) {
        const gone = missing(before.words, now.words);
        const added = missing(now.words, before.words);
        verdict = gone.count === 0 && added.count === 0 ? 'same words, other order' : `**differs**: -${gone.count} ${JSON.stringify(gone.sample)} +${added.count} ${JSON.stringify(added.sample)}`;
      } else verdict = '**differs**';
      if (!verdict.startsWith('same')) failures.push(`text layer of ${name}`);
    }
    return `| ${name} | ${describe(before)} | ${describe(now)} | ${verdict} |`;
  });
  console.log(`\nText layers (${engine()} now):\n`);
  console.log(['| file | baseline | now | words |', '| --- | --- | --- | --- |', ...textRows].join('\n'));

  // 2. Thumbnails.
  const thumbRows: string[] = [];
  const allMs: number[] = [];
  const thumbResults: unknown[] = [];
  for (const name of files.filter((file) => file.endsWith('.pdf') || file.endsWith('.png'))) {
    const file = path.join(CORPUS, name);
    const bytes = Buffer.from(readFileSync(file));
    const mime = name.endsWith('.pdf') ? 'application/pdf' : 'image/png';
    const warm = await timed(() => thumbnails.render(new Uint8Array(bytes), mime, BOX));
    if (WITHIN_TIMEOUT.includes(name) && warm.error !== undefined) failures.push(`${name} not rendered: ${warm.error.slice(0, 80)}`);
    if (warm.error !== undefined) {
      thumbRows.push(`| ${name} | refused: ${warm.error.slice(0, 80)} | | | | |`);
      thumbResults.push({ name, error: warm.error });
      continue;
    }
    const samples: number[] = [];
    for (let i = 0; i < RENDERS; i++) samples.push((await timed(() => thumbnails.render(new Uint8Array(bytes), mime, BOX))).ms);
    allMs.push(...samples);
    const slowest = Math.max(warm.ms, ...samples);
    if (WITHIN_TIMEOUT.includes(name)) {
      console.log(`${name}: slowest of ${RENDERS + 1} renders ${round(slowest)} ms (target: within the ${THUMBNAIL_TIMEOUT_MS} ms default limit).`);
      if (slowest > THUMBNAIL_TIMEOUT_MS) failures.push(`${name} took ${round(slowest)} ms, past the ${THUMBNAIL_TIMEOUT_MS} ms limit`);
    }
    const thumb = warm.value!;
    let decoded = 'yes';
    try {
      const size = decodePng(thumb.bytes);
      if (size.width !== thumb.width || size.height !== thumb.height) decoded = `size ${size.width}x${size.height} differs`;
    } catch (error) {
      decoded = `no (${(error as Error).message})`;
    }
    const source = await sourceSize(file, bytes);
    const ratio = source.width / source.height;
    const got = thumb.width / thumb.height;
    // Rounding to whole pixels moves the ratio by at most one pixel on the shorter side.
    const tolerance = 1 / Math.min(thumb.width, thumb.height) + 1e-9;
    const kept = Math.abs(got / ratio - 1) <= tolerance;
    if (decoded !== 'yes' || !kept) failures.push(`thumbnail of ${name}`);
    thumbRows.push(
      `| ${name} | ${thumb.width}x${thumb.height} | ${round(source.width)}x${round(source.height)} | ${kept ? 'yes' : '**no**'} | ${decoded} | ${round(percentile(samples, 50))} |`,
    );
    thumbResults.push({ name, width: thumb.width, height: thumb.height, bytes: thumb.bytes.length, source, aspectKept: kept, decoded, samplesMs: samples.map((ms) => round(ms)) });
  }
  console.log(`\nThumbnails at ${BOX.width}x${BOX.height}, PNG (${RENDERS} renders each after a warm-up):\n`);
  console.log(['| file | thumbnail | source (pt or px) | aspect kept | decodes | median ms |', '| --- | --- | --- | --- | --- | ---: |', ...thumbRows].join('\n'));
  console.log(`\nAll thumbnails: p50 ${round(percentile(allMs, 50))} ms, p95 ${round(percentile(allMs, 95))} ms per thumbnail.`);

  // 3. Hostile files.
  const hostileRows: string[] = [];
  const hostileResults: unknown[] = [];
  for (const { name, bytes } of hostileFiles()) {
    const mime = name.endsWith('.png') ? 'image/png' : 'application/pdf';
    const render = await timed(() => thumbnails.render(new Uint8Array(bytes), mime, BOX));
    const read = await timed(() => textLayer.read(new Uint8Array(bytes)));
    const outcome = (result: typeof render | typeof read): string =>
      result.error !== undefined ? `refused: ${result.error.replace(/^.*?: /, '').slice(0, 70)}` : result.value === null ? 'null (no text layer)' : 'done';
    if (render.ms > THUMBNAIL_BOUND_MS || read.ms > TEXT_LAYER_BOUND_MS) failures.push(`hostile ${name} past its bound`);
    hostileRows.push(`| ${name} | ${round(bytes.length / 1024)} | ${outcome(render)} | ${round(render.ms)} | ${outcome(read)} | ${round(read.ms)} |`);
    hostileResults.push({ name, kb: round(bytes.length / 1024), thumbnail: { ms: round(render.ms), outcome: outcome(render) }, textLayer: { ms: round(read.ms), outcome: outcome(read) } });
  }
  console.log('\nHostile files (thumbnail 256x256, then text layer; the pool replaces a worker after each failure):\n');
  console.log(['| file | KB | thumbnail | ms | text layer | ms |', '| --- | ---: | --- | ---: | --- | ---: |', ...hostileRows].join('\n'));
  const peak = await peakRssMb();
  console.log(`\nPeak RSS of this process (its 2 imaging workers are processes of their own, not counted): ${peak} MB. ${os.cpus().length} cores, node ${process.version}.`);

  await Promise.all([thumbnails.close(), textLayer.close()]);
  await mkdir(path.dirname(RESULTS_FILE), { recursive: true });
  await writeFile(
    RESULTS_FILE,
    `${JSON.stringify({ measuredAt: new Date().toISOString(), engine: engine(), node: process.version, peakRssMb: peak, texts, thumbnails: thumbResults, hostile: hostileResults }, null, 1)}\n`,
  );
  console.log(`Written: ${path.relative(REPO_ROOT, RESULTS_FILE)}`);
  if (failures.length) {
    console.log(`\nFAILED: ${failures.join('; ')}`);
    process.exitCode = 1;
  }
}

await main();
