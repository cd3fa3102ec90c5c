import * as z from 'zod';
import { MupdfTextLayerReader } from '../adapters/imaging/mupdf-text-layer-reader';
import { WasmThumbnailRenderer } from '../adapters/imaging/thumbnail-renderer';
import { ImagingPool } from '../adapters/imaging/worker-pool';
import { parseEnv } from './config';

/** Settings of the imaging workers (thumbnails, PDF text layers), in both runtimes. */
export const imagingEnvSchema = z.object({
  /** Worker threads for work on untrusted files: each may hold up to IMAGING_WORKER_MEMORY_MB of WebAssembly memory. */
  IMAGING_WORKERS: z.coerce.number().int().min(1).max(16).default(2),
  /** Cap on one worker's WebAssembly memory (MuPDF's heap); a file needing more fails. */
  IMAGING_WORKER_MEMORY_MB: z.coerce.number().int().min(128).max(2048).default(512),
});

/**
 * The thumbnail renderer and the PDF text-layer reader on one bounded pool of worker threads, so that the two
 * together never run more than IMAGING_WORKERS jobs on untrusted files. Workers start on the first job.
 */
export function imagingServices(env: NodeJS.ProcessEnv = process.env): { thumbnails: WasmThumbnailRenderer; textLayer: MupdfTextLayerReader } {
  const config = parseEnv(imagingEnvSchema, env);
  const pool = new ImagingPool({ size: config.IMAGING_WORKERS, wasmMemoryMb: config.IMAGING_WORKER_MEMORY_MB });
  return { thumbnails: new WasmThumbnailRenderer({ pool }), textLayer: new MupdfTextLayerReader({ pool }) };
}
