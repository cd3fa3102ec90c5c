import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import encodeWebp, { init as initWebpEncoder } from '@jsquash/webp/encode.js';
import * as mupdf from 'mupdf';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TesseractOcrEngine, type TesseractOcrEngineOptions } from '../../../../shared/adapters/local/tesseract-ocr-engine';
import { MARKER_FILE } from '../../../../shared/adapters/local/tesseract-stream';
import { OcrFailure, type OcrEngine, type OcrInput } from '../../../../shared/domain/ocr/ports';
import { describeOcrEngineContract, OCR_CORPUS_DIR } from '../../../contracts/ocr-engine.contract';
import { textPdf, type TextPage } from '../../../support/text-pdf';
import { rejectionOf } from '../../../support/rejection';
import { fileInput } from '../../../support/ocr-input';
import { eventually } from '../../../support/until';

const OCR_TIMEOUT_MS = 120_000;

describeOcrEngineContract('Tesseract', () => new TesseractOcrEngine(), { timeoutMs: OCR_TIMEOUT_MS });

// ---- fixtures made in code -------------------------------------------------------------------------------

const PAGE_ONE: TextPage = ['Invoice number 4711 for the garden furniture', 'delivered to Hamburg on Monday morning.'];
const PAGE_TWO: TextPage = ['Second page of the letter: payment is due', 'within thirty days of delivery.'];

const corpus = async (name: string): Promise<Uint8Array> => new Uint8Array(await readFile(path.join(OCR_CORPUS_DIR, name)));

/** The first page of a text PDF drawn as an 8-bit grey pixmap at `dpi`. */
const renderPage = (pdf: Uint8Array, index: number, dpi: number): mupdf.Pixmap => {
  const document = mupdf.Document.openDocument(pdf, 'application/pdf');
  const page = document.loadPage(index);
  return page.toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceGray, false);
};

/** An uncompressed little-endian 8-bit grey TIFF with one directory (page) per pixmap. */
const multiPageTiff = (pages: mupdf.Pixmap[]): Uint8Array => {
  const ENTRIES = 9;
  const IFD_SIZE = 2 + ENTRIES * 12 + 4;
  const sizes = pages.map((p) => p.getWidth() * p.getHeight());
  const total = 8 + pages.length * IFD_SIZE + sizes.reduce((sum, size) => sum + size, 0);
  const bytes = new Uint8Array(total);
  const view = new DataView(bytes.buffer);
  bytes.set([0x49, 0x49, 42, 0]);
  view.setUint32(4, 8, true);
  let data = 8 + pages.length * IFD_SIZE;
  pages.forEach((pixmap, i) => {
    const ifd = 8 + i * IFD_SIZE;
    const width = pixmap.getWidth();
    const height = pixmap.getHeight();
    const entries: [tag: number, type: 3 | 4, value: number][] = [
      [256, 4, width],
      [257, 4, height],
      [258, 3, 8],
      [259, 3, 1],
      [262, 3, 1], // BlackIsZero
      [273, 4, data],
      [277, 3, 1],
      [278, 4, height],
      [279, 4, width * height],
    ];
    view.setUint16(ifd, ENTRIES, true);
    entries.forEach(([tag, type, value], e) => {
      const at = ifd + 2 + e * 12;
      view.setUint16(at, tag, true);
      view.setUint16(at + 2, type, true);
      view.setUint32(at + 4, 1, true);
      if (type === 3) view.setUint16(at + 8, value, true);
      else view.setUint32(at + 8, value, true);
    });
    const last = i === pages.length - 1;
    view.setUint32(ifd + 2 + ENTRIES * 12, last ? 0 : ifd + IFD_SIZE, true);
    // A grey pixmap without alpha holds one byte per pixel, rows top to bottom: TIFF's own layout.
    bytes.set(pixmap.getPixels().subarray(0, width * height), data);
    data += width * height;
  });
  return bytes;
};

/** linn.png turned upside down (180 degrees), drawn by MuPDF. */
const upsideDownLinn = async (): Promise<Uint8Array> => {
  const image = new mupdf.Image(await corpus('linn.png'));
  const width = image.getWidth();
  const height = image.getHeight();
  const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceGray, [0, 0, width, height], false);
  pixmap.clear(255);
  const device = new mupdf.DrawDevice(mupdf.Matrix.identity, pixmap);
  device.fillImage(image, [-width, 0, 0, -height, width, height], 1);
  device.close();
  return pixmap.asPNG().slice();
};

const webpOf = async (pixmap: mupdf.Pixmap): Promise<Uint8Array> => {
  const rgb = pixmap.convertToColorSpace(mupdf.ColorSpace.DeviceRGB, false);
  const pixels = rgb.getPixels();
  const width = rgb.getWidth();
  const height = rgb.getHeight();
  const data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0, o = 0; o < data.length; i += 3, o += 4) data.set([pixels[i]!, pixels[i + 1]!, pixels[i + 2]!, 255], o);
  return new Uint8Array(await encodeWebp({ data, width, height, colorSpace: 'srgb' } as never, { lossless: 1 }));
};

const input = (bytes: Uint8Array, mimeType: string, extra: Partial<OcrInput> = {}): OcrInput => ({
  ...fileInput(bytes),
  mimeType,
  language: 'eng',
  objectKey: 'test/file',
  ...extra,
});

const failure = (promise: Promise<unknown>): Promise<OcrFailure> => rejectionOf(promise, OcrFailure);

const TSV_HEADER = 'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext';

/**
 * The lines of a stand-in's script that answer tesseract's stream mode (`tesseract - - ... -c
 * stream_filelist=true`): for each image path read from standard input, `onPage` runs with `$n` (the page's
 * number) and `$image`, unless the image is the engine's marker page; then the page's TSV row, and `$word` as
 * its text when set.
 */
const streamMode = (onPage: string[]): string[] => [
  'if [ "$1" = "-" ]; then',
  `  printf '${TSV_HEADER}\\n'`,
  '  n=0',
  '  while IFS= read -r image; do',
  '    n=$((n + 1)); word=; conf=-1',
  `    case "$image" in *${MARKER_FILE}) ;; *)`,
  ...onPage.map((line) => `      ${line}`),
  '    ;; esac',
  "    printf '5\\t%s\\t1\\t1\\t1\\t1\\t0\\t0\\t10\\t10\\t%s\\t%s\\n' \"$n\" \"$conf\" \"$word\"",
  '    [ -n "$word" ] && echo "$word"',
  '  done',
  '  exit 0',
  'fi',
];

/**
 * A stand-in for tesseract that logs each page it reads (OMP_THREAD_LIMIT, pid and page, start and end in ns),
 * sleeps, and reads nothing; `--list-langs` goes to the real tesseract. It makes scheduling observable without
 * OCR's cost. `hang` replaces the script by `sleep` (same pid), so that killing the logged pid leaves nothing
 * running.
 */
const fakeTesseract = async (
  directory: string,
  sleepSeconds: number,
  mode: 'finish' | 'hang' = 'finish',
): Promise<{ command: string; log: string }> => {
  const command = path.join(directory, 'fake-tesseract.sh');
  const log = path.join(directory, 'runs.log');
  await writeFile(
    command,
    [
      '#!/bin/sh',
      'if [ "$1" = "--list-langs" ]; then exec tesseract --list-langs; fi',
      ...streamMode([
        `echo "start $$ $n \${OMP_THREAD_LIMIT:-unset} $(date +%s%N)" >> "${log}"`,
        mode === 'hang' ? `exec sleep ${sleepSeconds}` : `sleep ${sleepSeconds}`,
        `echo "end $$ $n - $(date +%s%N)" >> "${log}"`,
      ]),
      'exit 1',
      '',
    ].join('\n'),
  );
  await chmod(command, 0o755);
  return { command, log };
};

/**
 * A stand-in for tesseract whose reading depends on the page segmentation asked for: `--psm 1` (with orientation
 * detection, a process per page) reads "upright" with confidence 95; the stream (`--psm 3`) reads "garbled" with
 * `firstConfidence`. Each page read appends its `--psm` value to the log.
 */
const orientationTesseract = async (directory: string, firstConfidence: number): Promise<{ command: string; log: string }> => {
  const command = path.join(directory, 'orientation-tesseract.sh');
  const log = path.join(directory, 'psm.log');
  await writeFile(
    command,
    [
      '#!/bin/sh',
      'if [ "$1" = "--list-langs" ]; then exec tesseract --list-langs; fi',
      'psm=$(echo "$*" | sed -n "s/.*--psm \\([0-9]*\\).*/\\1/p")',
      ...streamMode([`echo "$psm" >> "${log}"`, `word=garbled; conf=${firstConfidence}`]),
      `echo "$psm" >> "${log}"`,
      'echo upright > "$2.txt"',
      `printf '${TSV_HEADER}\\n5\\t1\\t1\\t1\\t1\\t1\\t0\\t0\\t10\\t10\\t95\\tupright\\n' > "$2.tsv"`,
      '',
    ].join('\n'),
  );
  await chmod(command, 0o755);
  return { command, log };
};

const psmRuns = async (log: string): Promise<string[]> => (await readFile(log, 'utf8')).trim().split('\n');

interface Run {
  /** The tesseract process that read the page. */
  pid: number;
  ompThreadLimit: string;
  start: bigint;
  end?: bigint;
}

/** The pages the stand-in read, one run each, in the order they started. */
const runsOf = async (log: string): Promise<Run[]> => {
  const runs = new Map<string, Run>();
  for (const line of (await readFile(log, 'utf8')).trim().split('\n')) {
    const [kind, pid, page, limit, at] = line.split(' ');
    if (kind === 'start') runs.set(`${pid} ${page}`, { pid: Number(pid), ompThreadLimit: limit!, start: BigInt(at!) });
    else runs.get(`${pid} ${page}`)!.end = BigInt(at!);
  }
  return [...runs.values()];
};

/** The most runs that were going on at the same instant. */
const maxOverlap = (runs: Run[]): number => {
  const events = runs.flatMap((run) => [
    { at: run.start, delta: 1 },
    { at: run.end!, delta: -1 },
  ]);
  events.sort((a, b) => (a.at === b.at ? a.delta - b.delta : a.at < b.at ? -1 : 1));
  let running = 0;
  let most = 0;
  for (const event of events) {
    running += event.delta;
    most = Math.max(most, running);
  }
  return most;
};

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

// ---- Tesseract specifics -----------------------------------------------------------------------------------

describe('TesseractOcrEngine', () => {
  let workDir: string;
  let tempDir: string;
  const engine = (options: TesseractOcrEngineOptions = {}): OcrEngine => new TesseractOcrEngine({ tempDir, ...options });

  beforeAll(async () => {
    const require = createRequire(import.meta.url);
    const wasm = await readFile(require.resolve('@jsquash/webp/codec/enc/webp_enc_simd.wasm'));
    await initWebpEncoder({ wasmBinary: new Uint8Array(wasm).buffer });
  });

  beforeEach(async () => {
    workDir = await mkdtemp(path.join(tmpdir(), 'docservice-ocr-test-'));
    tempDir = path.join(workDir, 'temp');
    await mkdir(tempDir);
  });

  afterEach(async () => {
    await rm(workDir, { recursive: true, force: true });
  });

  afterAll(() => {
    mupdf.emptyStore();
  });

  describe('languages', () => {
    it('refuses an unknown language with unsupported_language before reading anything', async () => {
      const bytes = await corpus('typewriter.png');

      const error = await failure(engine().recognize(input(bytes, 'image/png', { language: 'eng+klingon' })));

      expect(error.reason).toBe('unsupported_language');
    });

    it('does not list the orientation data osd as a language', async () => {
      const languages = await engine().languages();

      expect(languages).not.toContain('osd');
    });
  });

  describe('formats', () => {
    it('reads every page of a multi-page TIFF', { timeout: OCR_TIMEOUT_MS }, async () => {
      const pdf = textPdf([PAGE_ONE, PAGE_TWO]);
      const tiff = multiPageTiff([renderPage(pdf, 0, 200), renderPage(pdf, 1, 200)]);
      const progress: number[] = [];

      const output = await engine().recognize(input(tiff, 'image/tiff', { onProgress: ({ done }) => void progress.push(done) }));

      expect(output.pages).toBe(2);
      expect(output.text).toContain('Hamburg');
      expect(output.text).toContain('thirty days');
      expect(progress).toEqual([1, 2]);
    });

    it('reads a WebP image', { timeout: OCR_TIMEOUT_MS }, async () => {
      const webp = await webpOf(renderPage(textPdf([PAGE_ONE]), 0, 200));

      const output = await engine().recognize(input(webp, 'image/webp'));

      expect(output.text).toContain('garden furniture');
    });

    it('reads a scan that is upside down', { timeout: OCR_TIMEOUT_MS }, async () => {
      const bytes = await upsideDownLinn();

      const output = await engine().recognize(input(bytes, 'image/png'));

      expect(output.text).toContain('LinnSequencer');
      expect(output.text).toContain('32 Track MIDI Sequence Recorder');
    });

    it('joins the text of pages with a form feed on a line of its own', { timeout: OCR_TIMEOUT_MS }, async () => {
      const pdf = textPdf([PAGE_ONE, PAGE_TWO]);
      const tiff = multiPageTiff([renderPage(pdf, 0, 200), renderPage(pdf, 1, 200)]);

      const output = await engine().recognize(input(tiff, 'image/tiff'));

      expect(output.text.split('\n\f\n')).toHaveLength(2);
    });

    it('refuses a file that is neither a PDF nor an image with unsupported_type', async () => {
      const bytes = new TextEncoder().encode('just some plain text, not a scan');

      const error = await failure(engine().recognize(input(bytes, 'text/plain')));

      expect(error.reason).toBe('unsupported_type');
    });

    it('refuses an empty file with unreadable_file', async () => {
      const error = await failure(engine().recognize(input(new Uint8Array(), 'application/pdf')));

      expect(error.reason).toBe('unreadable_file');
    });
  });

  describe('bounds', () => {
    it('refuses a file larger than allowed with too_large before reading it', async () => {
      let reads = 0;
      const large = { ...input(textPdf([PAGE_ONE]), 'application/pdf'), size: 2 * 1024 * 1024, readBytes: () => (reads++, Promise.reject(new Error('read'))) };

      const error = await failure(engine({ maxInputBytes: 1024 * 1024 }).recognize(large));

      expect(error.reason).toBe('too_large');
      expect(reads).toBe(0);
    });

    it('refuses a PDF with more pages than allowed with too_large', async () => {
      const pdf = textPdf([PAGE_ONE, PAGE_TWO, PAGE_ONE]);

      const error = await failure(engine({ maxPages: 2 }).recognize(input(pdf, 'application/pdf')));

      expect(error.reason).toBe('too_large');
    });

    it('reads a page too large for 300 dpi at a lower resolution', { timeout: OCR_TIMEOUT_MS }, async () => {
      const pdf = textPdf([PAGE_ONE]);
      // A US Letter page is 93.5 square inches: 4 megapixels allow about 206 dpi.

      const output = await engine({ maxPagePixels: 4_000_000 }).recognize(input(pdf, 'application/pdf'));

      expect(output.text).toContain('garden furniture');
    });

    it('refuses a page that would need less than the minimum resolution with too_large', async () => {
      const pdf = textPdf([PAGE_ONE]);

      const error = await failure(engine({ maxPagePixels: 1_000_000 }).recognize(input(pdf, 'application/pdf')));

      expect(error.reason).toBe('too_large');
    });

    it('refuses an image with more pixels than allowed with too_large', async () => {
      const bytes = await corpus('linn.png');

      const error = await failure(engine({ maxPagePixels: 1_000_000 }).recognize(input(bytes, 'image/png')));

      expect(error.reason).toBe('too_large');
    });

    it('stops a tesseract run that takes too long with timeout and leaves no process behind', async () => {
      const { command, log } = await fakeTesseract(workDir, 30, 'hang');
      // Long enough for the stand-in to log its page while the other suites load both cores (500 ms was not).
      const slow = engine({ processTimeoutMs: 3_000, commands: { tesseract: command } });

      const error = await failure(slow.recognize(input(textPdf([PAGE_ONE]), 'application/pdf')));

      expect(error.reason).toBe('timeout');
      const [run] = await runsOf(log);
      expect(isAlive(run!.pid)).toBe(false);
    });

    it('fails with too_large when tesseract runs out of the memory it may use', { timeout: OCR_TIMEOUT_MS }, async () => {
      const bytes = await corpus('linn.png');

      // 96 MB: enough for tesseract to start (below ~70 MB its libraries do not load), too little to read linn.png.
      const error = await failure(engine({ memoryLimitBytes: 96 * 1024 * 1024 }).recognize(input(bytes, 'image/png')));

      expect(error.reason).toBe('too_large');
    });
  });

  describe('processes', () => {
    it('runs tesseract with OMP_THREAD_LIMIT=1', async () => {
      const { command, log } = await fakeTesseract(workDir, 0);

      await engine({ commands: { tesseract: command } }).recognize(input(textPdf([PAGE_ONE, PAGE_TWO]), 'application/pdf'));

      const runs = await runsOf(log);
      expect(runs.map((run) => run.ompThreadLimit)).toEqual(['1', '1']);
    });

    it('reads a page confidently read at the first pass once, without orientation detection', async () => {
      const { command, log } = await orientationTesseract(workDir, 90);

      const output = await engine({ commands: { tesseract: command } }).recognize(input(textPdf([PAGE_ONE]), 'application/pdf'));

      expect(output.text).toBe('garbled');
      expect(await psmRuns(log)).toEqual(['3']);
    });

    it('reads a page again with orientation detection when the first pass read it with little confidence, keeping the better reading', async () => {
      const { command, log } = await orientationTesseract(workDir, 30);

      const output = await engine({ commands: { tesseract: command } }).recognize(input(textPdf([PAGE_ONE]), 'application/pdf'));

      expect(output.text).toBe('upright');
      expect(output.confidence).toBeCloseTo(0.95);
      expect(await psmRuns(log)).toEqual(['3', '1']);
    });

    it('reads the pages of one document in parallel, up to the concurrency', async () => {
      const { command, log } = await fakeTesseract(workDir, 0.5);
      const pdf = textPdf([PAGE_ONE, PAGE_TWO, PAGE_ONE, PAGE_TWO]);

      await engine({ concurrency: 2, commands: { tesseract: command } }).recognize(input(pdf, 'application/pdf'));

      expect(maxOverlap(await runsOf(log))).toBe(2);
    });

    it('never runs more processes than the concurrency across documents read at the same time', async () => {
      const { command, log } = await fakeTesseract(workDir, 0.3);
      const shared = engine({ concurrency: 2, commands: { tesseract: command } });
      const pdf = textPdf([PAGE_ONE, PAGE_TWO, PAGE_ONE]);

      await Promise.all([1, 2, 3].map(() => shared.recognize(input(pdf, 'application/pdf'))));

      const runs = await runsOf(log);
      expect(runs).toHaveLength(9);
      expect(maxOverlap(runs)).toBe(2);
    });

    it('reads the pages of a document one after another with one tesseract process', async () => {
      const { command, log } = await fakeTesseract(workDir, 0);

      await engine({ concurrency: 1, commands: { tesseract: command } }).recognize(input(textPdf([PAGE_ONE, PAGE_TWO, PAGE_ONE]), 'application/pdf'));

      const runs = await runsOf(log);
      expect(runs).toHaveLength(3);
      expect(new Set(runs.map((run) => run.pid)).size).toBe(1);
    });

    it('lets a tesseract process that has no page to read exit after the idle time', async () => {
      const { command, log } = await fakeTesseract(workDir, 0);

      await engine({ idleProcessMs: 200, commands: { tesseract: command } }).recognize(input(textPdf([PAGE_ONE]), 'application/pdf'));

      const [run] = await runsOf(log);
      await eventually(async () => isAlive(run!.pid), (alive) => !alive, 20_000, 'the idle tesseract process to exit');
    }, 60_000);

    it('reads the same text as a tesseract process started for the page alone', { timeout: OCR_TIMEOUT_MS }, async () => {
      const file = path.join(OCR_CORPUS_DIR, 'typewriter.png');
      const alone = execFileSync('tesseract', [file, '-', '-l', 'eng', '--psm', '3'], { env: { ...process.env, OMP_THREAD_LIMIT: '1' }, stdio: ['ignore', 'pipe', 'ignore'] });
      const reader = engine({ concurrency: 1 });

      const outputs = [await reader.recognize(input(await corpus('typewriter.png'), 'image/png')), await reader.recognize(input(await corpus('typewriter.png'), 'image/png'))];

      expect(outputs.map((output) => output.text)).toEqual([alone.toString('utf8').trim(), alone.toString('utf8').trim()]);
    });

    it('reads a document after tesseract failed on an image it could not decode, with a new process', { timeout: OCR_TIMEOUT_MS }, async () => {
      const reader = engine({ concurrency: 1 });
      const good = await corpus('typewriter.png');
      const corrupt = good.slice();
      corrupt.fill(0x5a, 200, 4000); // inside the image data: the header and the end are intact, the data is not

      const error = await failure(reader.recognize(input(corrupt, 'image/png')));
      const output = await reader.recognize(input(good, 'image/png'));

      expect(error.reason).toBe('unreadable_file');
      expect(output.text.length).toBeGreaterThan(100);
    });

    it('leaves its temporary directory empty after reading a document', { timeout: OCR_TIMEOUT_MS }, async () => {
      const bytes = await corpus('typewriter.png');

      await engine().recognize(input(bytes, 'image/png'));

      expect(await readdir(tempDir)).toEqual([]);
    });

    it('leaves its temporary directory empty after a document fails', async () => {
      const bytes = await corpus('invalid.pdf');

      await failure(engine().recognize(input(bytes, 'application/pdf')));

      expect(await readdir(tempDir)).toEqual([]);
    });

    it('throws a plain error, not an OcrFailure, when tesseract is not installed', async () => {
      const broken = engine({ commands: { tesseract: path.join(workDir, 'no-such-tesseract') } });

      const error = await broken.languages().catch((thrown: unknown) => thrown);

      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(OcrFailure);
    });
  });
});

describe('TesseractOcrEngine with the local runtime limits', () => {
  it('refuses a document whose only page is above 40 megapixels at 300 dpi, such as enormous.pdf', async () => {
    const engine = new TesseractOcrEngine({ dpi: 300, minDpi: 300, maxPagePixels: 40_000_000 });
    const bytes = await readFile(path.join(OCR_CORPUS_DIR, 'enormous.pdf'));

    const outcome = engine.recognize({ ...fileInput(bytes), mimeType: 'application/pdf', language: 'eng', objectKey: 'enormous.pdf' });

    await expect(outcome).rejects.toMatchObject({ name: 'OcrFailure', reason: 'too_large' });
  });
});
