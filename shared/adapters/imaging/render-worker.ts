/**
 * Worker process entry of {@link ImagingPool}: owns pdf.js and the canvas, runs one job at a time (a thumbnail, a
 * text layer, a searchable PDF) and answers over its IPC channel with its output or the reason it could not. It
 * runs in a process of its own so that the pool can stop it mid-job (a timeout) and drop all its memory, and so
 * that a decoder that aborts (V8 gives up on some out-of-heap allocations instead of failing them; a native
 * library may crash) takes down this process only, never the one answering requests. Its memory is capped three
 * ways: the V8 heap by the pool's `--max-old-space-size`, the native pixels of its canvases and decoded images,
 * and the WebAssembly memory of pdf.js's image decoders (both by {@link WORKER_MEMORY_BYTES_ENV}).
 */
import { runInBackground } from '../node/background-priority';
import { FileRefusal, WORKER_MEMORY_BYTES_ENV, withPlainBytes, type ImagingJobKind, type ImagingJobs, type WorkerReady, type WorkerRequest, type WorkerResponse } from './jobs';
import { setCanvasPixelCap } from './pdf-engine';
import { renderThumbnail } from './render-page';
import { pagePdfs } from './page-pdf';
import { blankPages } from './blank-pages';
import { blankImagePages } from './blank-image';
import { writeSearchablePdf } from '../pdf/searchable-pdf';
import { readTextLayer } from './text-layer';
import { capWasmMemory, isAllocationFailure } from './wasm-memory-cap';

// Renders and text layers are CPU-bound work on untrusted files: the process answering requests goes first.
runInBackground();

const send = process.send?.bind(process);
if (!send) throw new Error('render-worker.ts runs as a child process of the imaging pool only');
// The pool gone (closed, or its process ended), nothing is left to answer.
process.on('disconnect', () => process.exit(0));

const memoryBytes = Number(process.env[WORKER_MEMORY_BYTES_ENV]);
if (!(memoryBytes > 0)) throw new Error(`${WORKER_MEMORY_BYTES_ENV} must be a positive number of bytes`);
capWasmMemory(memoryBytes);
setCanvasPixelCap(Math.floor(memoryBytes / 4));

// pdf.js settles some of its internal promises after a job was refused (a cancelled text stream, a destroyed
// document): a rejection nobody awaits then would end the process. The job's own outcome was sent already.
process.on('unhandledRejection', () => undefined);

const MAX_REASON_LENGTH = 200;

const reasonOf = (error: unknown): string => {
  if (error instanceof FileRefusal) return error.message;
  if (isAllocationFailure(error)) return 'processing it needs more memory than allowed';
  const message = error instanceof Error ? error.message : String(error);
  return `the file is corrupt or unsupported (${message})`.slice(0, MAX_REASON_LENGTH);
};

const handlers: { [K in ImagingJobKind]: (input: ImagingJobs[K]['input']) => Promise<ImagingJobs[K]['output']> } = {
  thumbnail: (job) => renderThumbnail(job),
  'text-layer': (job) => readTextLayer(job),
  'page-pdf': (job) => pagePdfs(job),
  'searchable-pdf': (job) => writeSearchablePdf(job),
  'blank-pages': (job) => blankPages(job),
  'blank-image': (job) => blankImagePages(job),
};

process.on('message', async ({ id, kind, input }: WorkerRequest) => {
  let response: WorkerResponse;
  try {
    const output = await (handlers[kind] as (input: unknown) => Promise<ImagingJobs[ImagingJobKind]['output']>)(withPlainBytes(input));
    response = { id, ok: true, output, externalBytes: process.memoryUsage().external };
  } catch (error) {
    response = { id, ok: false, reason: reasonOf(error), externalBytes: process.memoryUsage().external };
  }
  send(response);
});

/**
 * A one-page PDF of Helvetica text, rendered and read once before the worker says it is ready: pdf.js loads its
 * font data, parser and drawing paths lazily, and that first-use cost (a second or more on a busy machine)
 * belongs to the worker's start, not to the first job's timeout.
 */
const warmUpPdf = (): Uint8Array => {
  const content = 'BT /F1 24 Tf 72 700 Td (Warm up) Tj ET';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((body, i) => {
    const at = pdf.length;
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return at;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(pdf, 'latin1'));
};

const warmUp = async (): Promise<void> => {
  const bytes = warmUpPdf();
  const bounds = { maxPixels: 1e6, maxContentBytes: 1 << 20 };
  await renderThumbnail({ bytes, format: 'pdf', box: { width: 32, height: 32 }, ...bounds, output: 'png', jpegQuality: 80 });
  await readTextLayer({ bytes, maxPages: 1, maxCharsPerPage: 1000, maxContentBytes: 1 << 20 });
};

void warmUp()
  .catch(() => undefined) // a failure here shows in the first job, with its reason
  .then(() => send({ ready: true } satisfies WorkerReady));
