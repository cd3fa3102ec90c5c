/**
 * Worker thread entry of {@link WasmThumbnailRenderer}: owns the MuPDF and libwebp WebAssembly instances, renders
 * one job at a time and answers with the thumbnail or the reason it could not. It runs in a thread of its own so
 * that the main thread can stop it mid-render (a timeout) and drop its WebAssembly memory, which only ever grows.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parentPort } from 'node:worker_threads';
import decodeWebpFile, { init as initWebpDecoder } from '@jsquash/webp/decode.js';
import * as mupdf from 'mupdf';
import { RenderRefusal, renderThumbnail, type RenderJob, type RenderOutput, type WebpDecoder } from './render-page';

/** A request from the main thread. */
export interface WorkerRequest {
  id: number;
  job: RenderJob;
}

/** The answer, with the bytes of WebAssembly and other off-heap memory the worker holds after the job. */
export type WorkerResponse = { id: number; externalBytes: number } & (
  | { ok: true; thumbnail: RenderOutput }
  | { ok: false; reason: string }
);

/** Sent once, when the libraries are loaded and the worker takes jobs. */
export interface WorkerReady {
  ready: true;
}

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
  if (error instanceof RenderRefusal) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return `the file is corrupt or unsupported (${message})`.slice(0, MAX_REASON_LENGTH);
};

const port = parentPort;
if (!port) throw new Error('render-worker.ts runs as a worker thread only');

port.on('message', async ({ id, job }: WorkerRequest) => {
  let response: WorkerResponse;
  try {
    const thumbnail = await renderThumbnail(job, decodeWebp);
    response = { id, ok: true, thumbnail, externalBytes: process.memoryUsage().external };
  } catch (error) {
    response = { id, ok: false, reason: reasonOf(error), externalBytes: process.memoryUsage().external };
  }
  const transfer = response.ok ? [response.thumbnail.bytes.buffer as ArrayBuffer] : [];
  port.postMessage(response, transfer);
});

port.postMessage({ ready: true } satisfies WorkerReady);
