/**
 * Searchable PDF (issue 39): quality, size and cost of the PDF the OCR worker writes after a run
 * (shared/adapters/pdf/), against OCRmyPDF run on the same files in the same session.
 *
 *   npx tsx bench/ocr-searchable-pdf.ts
 *
 * Inputs: scanned PDFs of the OCRmyPDF corpus (CCITT, JBIG2, a page with /Rotate 90), 3 generated scans as PDFs
 * (test/support/mixed-pdf.ts, one image a page) and 2 image files: few, as OCRmyPDF takes minutes a file on a
 * busy machine. For each: Tesseract reads it (TesseractOcrEngine, word boxes from its TSV), then the writer
 * writes the PDF in the imaging pool, as the worker does (3 times, the median kept: one write is milliseconds,
 * which a busy machine's stall can multiply); OCRmyPDF (Debian's, installed when missing) writes its own with
 * its defaults and `--output-type pdf` (`--image-dpi 300` for images, `--force-ocr` for a PDF with a little text).
 *
 * Checks, each file: `pdftotext` on our output finds every word of the OCR text (recall 1); `pdftotext -bbox`
 * places each word within 2 % of the page of the engine's box; our size at most 1.2x a scanned PDF's and at
 * most OCRmyPDF's; the write adds at most 15 % to the OCR time. Pages a minute are reported with and without
 * the PDF, and OCRmyPDF's. Results in bench/results/ocr-searchable-pdf.json. Exits non-zero only on a crash.
 *
 *   npx tsx bench/ocr-searchable-pdf.ts --corpus
 *
 * Every PDF and PNG of the corpus instead, without OCRmyPDF (it would take most of an hour on them): recall,
 * placement and size against the input of each, and the reason of each file OCR refuses. Results in
 * bench/results/ocr-searchable-pdf-corpus.json.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TesseractOcrEngine } from '../shared/adapters/local/tesseract-ocr-engine';
import { ImagingPool } from '../shared/adapters/imaging/worker-pool';
import { PoolSearchablePdfWriter } from '../shared/adapters/pdf/pool-searchable-pdf-writer';
import { turnWord, uprightTurn } from '../shared/adapters/pdf/text-direction';
import type { OcrWord } from '../shared/domain/ocr/page-texts';
import { mixedPdf } from '../test/support/mixed-pdf';
import { fileInput } from '../test/support/ocr-input';
import { extractWords, placementErrors, wordRecall } from '../test/support/pdf-words';
import { generateScans } from './support/scans';
import { round } from './support/stats';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const CORPUS = path.resolve(REPO_ROOT, '../shared/corpus/ocrmypdf');
const WHOLE_CORPUS = process.argv.includes('--corpus');
const RESULTS_FILE = path.join(REPO_ROOT, 'bench', 'results', WHOLE_CORPUS ? 'ocr-searchable-pdf-corpus.json' : 'ocr-searchable-pdf.json');
const SCANNED_PDFS = ['ccitt.pdf', 'jbig2.pdf', 'rotated_skew.pdf'];
const IMAGES = ['linn.png', 'typewriter.png'];
/** Writes of each file, the median's time kept. */
const WRITES = 3;
const TARGETS = { recall: 1, placement: 0.02, sizeOfInput: 1.2, overhead: 0.15 };

/** One file's measurements. */
interface Row {
  file: string;
  pages: number;
  words: number;
  recall: number;
  worst_placement: number;
  input_bytes: number;
  output_bytes: number;
  ocrmypdf_bytes: number;
  size_of_input: number;
  size_of_ocrmypdf: number;
  ocr_seconds: number;
  write_seconds: number;
  overhead: number;
  ocrmypdf_seconds: number;
}

interface Input {
  name: string;
  bytes: Uint8Array;
  mimeType: string;
  scannedPdf: boolean;
}

const run = (command: string, args: string[]): Promise<string> =>
  new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`${command} exited ${code}: ${stderr.slice(-500)}`))));
  });

/** Installs Debian's ocrmypdf when it is missing (the bench runs as a user who may use apt-get). */
async function ensureOcrmypdf(): Promise<string> {
  const version = await run('ocrmypdf', ['--version']).catch(() => undefined);
  if (version) return version.trim();
  console.log('ocrmypdf is missing: apt-get install -y ocrmypdf');
  await run('apt-get', ['install', '-y', 'ocrmypdf']).catch(async () => {
    await run('apt-get', ['update']);
    await run('apt-get', ['install', '-y', 'ocrmypdf']);
  });
  return (await run('ocrmypdf', ['--version'])).trim();
}

const seconds = (since: number): number => (performance.now() - since) / 1000;

/**
 * Each word's distance from its extracted place (`placementErrors`), in the frame of the page as shown: a page
 * scanned lying turned is shown upright by the writer, its words turned with it, so their boxes are turned alike.
 */
const placements = (pages: readonly OcrWord[][], extracted: Awaited<ReturnType<typeof extractWords>>): number[] =>
  pages.flatMap((page, i) => {
    const turn = uprightTurn(page);
    return placementErrors(turn === 0 ? page : page.map((word) => turnWord(word, turn)), extracted[i]!);
  });

async function inputs(): Promise<Input[]> {
  const corpus = async (name: string) => new Uint8Array(await readFile(path.join(CORPUS, name)));
  if (WHOLE_CORPUS) {
    const files = readdirSync(CORPUS).filter((file) => /\.(pdf|png)$/.test(file)).sort();
    return Promise.all(files.map(async (name) => ({ name, bytes: await corpus(name), mimeType: name.endsWith('.png') ? 'image/png' : 'application/pdf', scannedPdf: name.endsWith('.pdf') })));
  }
  const pdfs = await Promise.all(SCANNED_PDFS.map(async (name) => ({ name, bytes: await corpus(name), mimeType: 'application/pdf', scannedPdf: true })));
  const scans = await Promise.all(
    generateScans(3).map(async (scan) => ({ name: scan.name.replace('.png', '.pdf'), bytes: new Uint8Array(await mixedPdf([{ png: scan.png }])), mimeType: 'application/pdf', scannedPdf: true })),
  );
  const images = await Promise.all(IMAGES.map(async (name) => ({ name, bytes: await corpus(name), mimeType: 'image/png', scannedPdf: false })));
  return [...pdfs, ...scans, ...images];
}

async function ocrmypdf(input: Input, directory: string): Promise<{ bytes: number; seconds: number }> {
  const source = path.join(directory, input.name);
  const output = path.join(directory, `${input.name}.ocrmypdf.pdf`);
  await writeFile(source, input.bytes);
  const args = ['-q', '-l', 'eng', '--output-type', 'pdf', '--force-ocr'];
  if (!input.scannedPdf) args.push('--image-dpi', '300');
  const started = performance.now();
  await run('ocrmypdf', [...args, source, output]);
  return { bytes: (await stat(output)).size, seconds: seconds(started) };
}

/** Our side of every corpus file: OCR, the write, recall, placement, size against the input; a refusal's reason. */
async function corpusMain(): Promise<void> {
  const engine = new TesseractOcrEngine();
  const pool = new ImagingPool({ size: 1, prestart: true });
  const writer = new PoolSearchablePdfWriter({ pool });
  const rows: Record<string, unknown>[] = [];
  try {
    for (const input of await inputs()) {
      const output = await engine.recognize({ ...fileInput(input.bytes), mimeType: input.mimeType, language: 'eng', objectKey: input.name }).catch((error: Error) => error);
      if (output instanceof Error) {
        rows.push({ file: input.name, refused_by_ocr: output.message });
        console.log(JSON.stringify(rows.at(-1)));
        continue;
      }
      const pages: OcrWord[][] = (output.pageTexts ?? []).map((page) => page.boxes ?? []);
      const pdf = await writer.write({ bytes: input.bytes, mimeType: input.mimeType }, pages);
      const extracted = await extractWords(pdf);
      const row = {
        file: input.name,
        pages: output.pages,
        words: pages.reduce((sum, page) => sum + page.length, 0),
        recall: round(wordRecall(output.text.split(/\s+/).filter(Boolean), extracted.flatMap((page) => page.words.map((word) => word.text))), 4),
        worst_placement: round(Math.max(0, ...placements(pages, extracted)), 4),
        input_bytes: input.bytes.byteLength,
        output_bytes: pdf.byteLength,
        size_of_input: round(pdf.byteLength / input.bytes.byteLength, 3),
      };
      rows.push(row);
      console.log(JSON.stringify(row));
    }
  } finally {
    await pool.close();
  }
  const result = { date: new Date().toISOString(), machine: { cpus: os.availableParallelism(), load: os.loadavg().map((value) => round(value, 2)) }, targets: TARGETS, rows };
  await writeFile(RESULTS_FILE, `${JSON.stringify(result, null, 2)}\n`);
}

async function main(): Promise<void> {
  const version = await ensureOcrmypdf();
  const engine = new TesseractOcrEngine();
  const pool = new ImagingPool({ size: 1, prestart: true });
  const writer = new PoolSearchablePdfWriter({ pool });
  const directory = await mkdtemp(path.join(os.tmpdir(), 'bench-searchable-'));
  const rows: Row[] = [];
  try {
    // A first write warms the worker (pdf-lib's code compiled once), as a running worker is.
    const [warm] = await inputs();
    await writer.write({ bytes: warm!.bytes, mimeType: warm!.mimeType }, [[]]);
    for (const input of await inputs()) {
      const ocrStarted = performance.now();
      const output = await engine.recognize({ ...fileInput(input.bytes), mimeType: input.mimeType, language: 'eng', objectKey: input.name });
      const ocrSeconds = seconds(ocrStarted);
      const pages: OcrWord[][] = (output.pageTexts ?? []).map((page) => page.boxes ?? []);
      const writes: { pdf: Uint8Array; seconds: number }[] = [];
      for (let i = 0; i < WRITES; i++) {
        const writeStarted = performance.now();
        const written = await writer.write({ bytes: input.bytes, mimeType: input.mimeType }, pages);
        writes.push({ pdf: written, seconds: seconds(writeStarted) });
      }
      const pdf = writes[0]!.pdf;
      const writeSeconds = writes.map((write) => write.seconds).sort((a, b) => a - b)[Math.floor(WRITES / 2)]!;
      const extracted = await extractWords(pdf);
      const words = pages.flatMap((page, i) => page.map((word) => ({ word, page: i })));
      const recall = wordRecall(
        output.text.split(/\s+/).filter(Boolean),
        extracted.flatMap((page) => page.words.map((word) => word.text)),
      );
      const placement = Math.max(0, ...placements(pages, extracted));
      const theirs = await ocrmypdf(input, directory);
      const row: Row = {
        file: input.name,
        pages: output.pages,
        words: words.length,
        recall: round(recall, 4),
        worst_placement: round(placement, 4),
        input_bytes: input.bytes.byteLength,
        output_bytes: pdf.byteLength,
        ocrmypdf_bytes: theirs.bytes,
        size_of_input: round(pdf.byteLength / input.bytes.byteLength, 3),
        size_of_ocrmypdf: round(pdf.byteLength / theirs.bytes, 3),
        ocr_seconds: round(ocrSeconds, 3),
        write_seconds: round(writeSeconds, 3),
        overhead: round(writeSeconds / ocrSeconds, 3),
        ocrmypdf_seconds: round(theirs.seconds, 3),
      };
      rows.push(row);
      console.log(JSON.stringify(row));
    }
  } finally {
    await pool.close();
    await rm(directory, { recursive: true, force: true });
  }
  const total = (key: 'pages' | 'ocr_seconds' | 'write_seconds' | 'ocrmypdf_seconds') => rows.reduce((sum, row) => sum + row[key], 0);
  const pages = total('pages');
  const summary = {
    pages,
    pages_per_minute_without: round((pages / total('ocr_seconds')) * 60, 1),
    pages_per_minute_with: round((pages / (total('ocr_seconds') + total('write_seconds'))) * 60, 1),
    pages_per_minute_ocrmypdf: round((pages / total('ocrmypdf_seconds')) * 60, 1),
    overall_overhead: round(total('write_seconds') / total('ocr_seconds'), 3),
    worst_overhead: Math.max(...rows.map((row) => row.overhead)),
    min_recall: Math.min(...rows.map((row) => row.recall)),
    worst_placement: Math.max(...rows.map((row) => row.worst_placement)),
    worst_size_of_scanned_input: Math.max(...rows.filter((row) => !IMAGES.includes(row.file)).map((row) => row.size_of_input)),
    worst_size_of_ocrmypdf: Math.max(...rows.map((row) => row.size_of_ocrmypdf)),
  };
  const met = {
    recall: summary.min_recall >= TARGETS.recall,
    placement: summary.worst_placement <= TARGETS.placement,
    size_of_input: summary.worst_size_of_scanned_input <= TARGETS.sizeOfInput,
    size_of_ocrmypdf: summary.worst_size_of_ocrmypdf <= 1,
    overhead: summary.worst_overhead <= TARGETS.overhead,
  };
  const result = { date: new Date().toISOString(), machine: { cpus: os.availableParallelism(), load: os.loadavg().map((value) => round(value, 2)) }, ocrmypdf: version, targets: TARGETS, summary, met, rows };
  await writeFile(RESULTS_FILE, `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify({ summary, met }, null, 2));
}

await (WHOLE_CORPUS ? corpusMain() : main());
