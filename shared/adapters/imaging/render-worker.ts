/**
 * Worker thread entry of {@link ImagingPool}: owns the MuPDF and libwebp WebAssembly instances, runs one job at a
 * time (a thumbnail, a text layer) and answers with its output or the reason it could not. It runs in a thread
 * of its own so that the main thread can stop it mid-job (a timeout) and drop its WebAssembly memory, which only
 * ever grows; that memory is capped (`WorkerSettings.wasmMemoryBytes`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import decodeWebpFile, { init as initWebpDecoder } from '@jsquash/webp/decode.js';
import * as mupdf from 'mupdf';
import { FileRefusal, type ImagingJobKind, type ImagingJobs, type WorkerReady, type WorkerRequest, type WorkerResponse, type WorkerSettings } from './jobs';
import { renderThumbnail, type WebpDecoder } from './render-page';
import { readTextLayer } from './text-layer';
import { capWasmMemory, isAllocationFailure } from './wasm-memory-cap';

capWasmMemory((workerData as WorkerSettings).wasmMemoryBytes);

/** MuPDF writes warnings about repaired files to stderr; the reason of a failure travels in the error instead. */
mupdf.setLog({ error: () => undefined, warning: () => undefined });

/**
 * libwebp's decoder cannot fetch its .wasm from a file URL under Node, so its bytes are read here: from beside
 * this file once bundled (the bundling copies it there), else from node_modules.
 */
const webpWasmPath = (): string => {
  const bundled = fileURLToPath(new URL('./webp_dec.wasm', import.meta.url));
  if (existsSync(bundled)) return bundled;
  return createRequire(import.meta.url).resolve('@jsquash/webp/codec/dec/webp_dec.wasm');
};

let webpReady: Promise<void> | undefined;

const decodeWebp: WebpDecoder = async (bytes) => {
  webpReady ??= initWebpDecoder({ wasmBinary: new Uint8Array(readFileSync(webpWasmPath())).buffer });
  await webpReady;
  const copy = bytes.slice();
  const image = (await decodeWebpFile(copy.buffer)) as { data: Uint8ClampedArray; width: number; height: number };
  return image;
};

const MAX_REASON_LENGTH = 200;

const reasonOf = (error: unknown): string => {
  if (error instanceof FileRefusal) return error.message;
  if (isAllocationFailure(error)) return 'processing it needs more memory than allowed';
  const message = error instanceof Error ? error.message : String(error);
  return `the file is corrupt or unsupported (${message})`.slice(0, MAX_REASON_LENGTH);
};

const handlers: { [K in ImagingJobKind]: (input: ImagingJobs[K]['input']) => Promise<ImagingJobs[K]['output']> } = {
  thumbnail: (job) => renderThumbnail(job, decodeWebp),
  'text-layer': async (job) => readTextLayer(job),
};

const port = parentPort;
if (!port) throw new Error('render-worker.ts runs as a worker thread only');

port.on('message', async ({ id, kind, input }: WorkerRequest) => {
  let response: WorkerResponse;
  try {
    const output = await (handlers[kind] as (input: unknown) => Promise<ImagingJobs[ImagingJobKind]['output']>)(input);
    response = { id, ok: true, output, externalBytes: process.memoryUsage().external };
  } catch (error) {
    response = { id, ok: false, reason: reasonOf(error), externalBytes: process.memoryUsage().external };
  }
  const transfer = response.ok && kind === 'thumbnail' ? [(response.output as ImagingJobs['thumbnail']['output']).bytes.buffer as ArrayBuffer] : [];
  port.postMessage(response, transfer);
});

port.postMessage({ ready: true } satisfies WorkerReady);
