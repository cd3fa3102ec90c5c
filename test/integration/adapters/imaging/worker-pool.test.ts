import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { PdfTextLayerReader } from '../../../../shared/adapters/imaging/pdf-text-layer-reader';
import { CanvasThumbnailRenderer } from '../../../../shared/adapters/imaging/canvas-thumbnail-renderer';
import { ImagingPool, type ImagingPoolOptions } from '../../../../shared/adapters/imaging/worker-pool';
import { AppError } from '../../../../shared/domain/errors';
import { OcrFailure } from '../../../../shared/domain/ocr/ports';
import { flateBombPdf, issue12BombPdf, pdfFile, slowDrawingPdf } from '../../../support/hostile-files';
import { textPdf } from '../../../support/text-pdf';

const PDF = 'application/pdf';
const BOX = { width: 120, height: 120 };
const TEXT = textPdf([['A page with a text layer, long enough to count as text.']]);

/** One page drawing one string of `chars` characters (FlateDecode, a few KB): pdf.js holds an object per glyph. */
const oneLongStringPdf = (chars: number): Buffer => {
  const content = deflateSync(Buffer.concat([Buffer.from('BT /F1 12 Tf 72 720 Td ('), Buffer.alloc(chars, 'x'), Buffer.from(') Tj ET')]));
  return pdfFile([
    { body: '<< /Type /Catalog /Pages 2 0 R >>' },
    { body: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' },
    { body: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>' },
    { body: `<< /Length ${content.length} /Filter /FlateDecode >>`, stream: content },
    { body: '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>' },
  ]);
};

/** The longest the event loop went without running a timer while `work` ran: what a health check would wait. */
const longestStall = async (work: Promise<unknown>): Promise<number> => {
  let longest = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 10);
  await work.catch(() => undefined);
  clearInterval(timer);
  return longest;
};

const rejection = async (promise: Promise<unknown>): Promise<unknown> => promise.then(() => expect.unreachable('it resolved'), (error: unknown) => error);

describe('ImagingPool', () => {
  const pools: ImagingPool[] = [];
  const pool = (options: ImagingPoolOptions = {}): ImagingPool => {
    const created = new ImagingPool(options);
    pools.push(created);
    return created;
  };

  afterEach(async () => {
    await Promise.all(pools.splice(0).map((created) => created.close()));
  });

  it('reads the text layer of the issue 12 flate bomb without stalling the calling thread, and refuses it', async () => {
    const reader = new PdfTextLayerReader({ pool: pool() });
    const bomb = issue12BombPdf();
    await reader.read(TEXT); // the worker's start-up is not what is measured

    const read = reader.read(bomb);
    const stall = await longestStall(read);

    const error = await rejection(read);
    expect(error).toBeInstanceOf(OcrFailure);
    expect(error).toMatchObject({ reason: 'too_large', message: expect.stringContaining('inflates to more than 32 MiB') });
    expect(stall).toBeLessThan(500);
  });

  it('refuses a page that draws more glyphs than the bound before its text fills the memory', async () => {
    const reader = new PdfTextLayerReader({ pool: pool(), maxCharsPerPage: 10_000 });

    const error = await rejection(reader.read(flateBombPdf(1 << 20)));

    expect(error).toMatchObject({ reason: 'too_large', message: expect.stringContaining('more than 10000 characters') });
  });

  it('fails a job that needs more memory than the cap, and the next job runs', async () => {
    const shared = pool({ memoryMb: 128 });
    const reader = new PdfTextLayerReader({ pool: shared, maxCharsPerPage: Number.MAX_SAFE_INTEGER });

    const error = await rejection(reader.read(oneLongStringPdf(24 << 20)));

    expect(error).toMatchObject({ reason: 'too_large', message: expect.stringContaining('more memory than allowed') });
    await expect(reader.read(TEXT)).resolves.toMatchObject({ pages: [expect.objectContaining({ drawsImages: false })] });
  }, 60_000);

  it('lets a script that awaits its close go on: stopping the workers holds the process until they are gone', () => {
    const script = fileURLToPath(new URL('../../../support/imaging/close-pool-script.ts', import.meta.url));

    const run = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 60_000 });

    expect({ status: run.status, stdout: run.stdout.trim() }).toEqual({ status: 0, stdout: 'closed' });
  }, 90_000);

  it('fails the one job whose worker process aborts past its heap limit, and keeps serving', async () => {
    const heapAborting = new URL('../../../support/imaging/heap-aborting-worker.mjs', import.meta.url);
    const shared = pool({ size: 1, memoryMb: 64, workerUrl: heapAborting });
    const job = (abort: boolean) => shared.run('text-layer', { abort } as never, { timeoutMs: 60_000, maxWaitMs: 60_000 });

    const error = await rejection(job(true));

    expect(error).toMatchObject({ kind: 'memory', reason: 'processing it needs more memory than allowed' });
    await expect(job(false)).resolves.toEqual({ pages: [] });
  }, 90_000);

  it('stops a render that runs past its timeout and blames the file (400)', async () => {
    const renderer = new CanvasThumbnailRenderer({ pool: pool(), timeoutMs: 500 });

    const error = await rejection(renderer.render(slowDrawingPdf(), PDF, BOX, { fileKey: 'slow' }));

    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'file', reason: 'processing it took longer than 500 ms' } });
  });

  it('refuses every other size of a file that failed at once, queued or asked later', async () => {
    const shared = pool();
    const renderer = new CanvasThumbnailRenderer({ pool: shared, timeoutMs: 500 });
    const slow = slowDrawingPdf();
    const sizes = [100, 110, 120].map((side) => renderer.render(slow, PDF, { width: side, height: side }, { fileKey: 'doc-a' }));

    const failures = await Promise.all(sizes.map(rejection));
    const asked = renderer.render(slow, PDF, { width: 130, height: 130 }, { fileKey: 'doc-a' });
    const loadWhenAsked = shared.load;
    const later = await rejection(asked);

    for (const failure of [...failures, later]) expect(failure).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'file' } });
    // Refused without a job: nothing queued or running for it (a render would take the time limit again).
    expect(loadWhenAsked).toEqual({ running: 0, queued: 0 });
  });

  it('renders other documents while one document has renders stuck at every size', async () => {
    const shared = pool({ size: 2 });
    const renderer = new CanvasThumbnailRenderer({ pool: shared, timeoutMs: 20_000 });
    const slow = slowDrawingPdf();
    let stuckEnded = 0;
    const stuck = [100, 110, 120, 130, 140, 150].map((side) =>
      rejection(renderer.render(slow, PDF, { width: side, height: side }, { fileKey: 'doc-a' })).finally(() => stuckEnded++),
    );

    const other = await renderer.render(TEXT, PDF, BOX, { fileKey: 'doc-b' });

    expect(other.width).toBeGreaterThan(0);
    // Not queued behind doc-a: its render holds a worker until the time limit, and its other sizes wait for it.
    expect(stuckEnded).toBe(0);
    await shared.close();
    await Promise.all(stuck);
  });

  it('answers SERVICE_UNAVAILABLE with a retry delay when no worker frees up within the wait', async () => {
    const shared = pool({ size: 1 });
    const renderer = new CanvasThumbnailRenderer({ pool: shared, timeoutMs: 20_000, maxWaitMs: 300 });
    const stuck = rejection(renderer.render(slowDrawingPdf(), PDF, BOX, { fileKey: 'doc-a' }));

    const error = await rejection(renderer.render(TEXT, PDF, BOX, { fileKey: 'doc-b' }));

    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { retry_after_seconds: 1 } });
    await shared.close();
    await stuck;
  });

  it('does not remember a file that was only refused for want of capacity', async () => {
    // The time limit ends the slow render; the last render, on the same pool (which remembers refusals), has a
    // limit no loaded machine reaches.
    const shared = pool({ size: 1 });
    const renderer = new CanvasThumbnailRenderer({ pool: shared, timeoutMs: 3_000, maxWaitMs: 100 });
    const stuck = renderer.render(slowDrawingPdf(), PDF, BOX, { fileKey: 'doc-a' });
    await rejection(renderer.render(TEXT, PDF, BOX, { fileKey: 'doc-b' }));
    await rejection(stuck);

    const thumbnail = await new CanvasThumbnailRenderer({ pool: shared, timeoutMs: 60_000 }).render(TEXT, PDF, BOX, { fileKey: 'doc-b' });

    expect(thumbnail.width).toBeGreaterThan(0);
  });
});
