import * as z from '../../zod';
import { PdfTextLayerReader } from '../../adapters/imaging/pdf-text-layer-reader';
import { CanvasThumbnailRenderer } from '../../adapters/imaging/canvas-thumbnail-renderer';
import { ImagingPool } from '../../adapters/imaging/worker-pool';
import { PoolSearchablePdfWriter } from '../../adapters/pdf/pool-searchable-pdf-writer';
import { parseEnv } from './config';

/** Settings of the imaging workers (thumbnails, PDF text layers), in both runtimes. */
export const imagingEnvSchema = z.lazy(() =>
  z.object({
    /** Worker threads for work on untrusted files: each may hold up to IMAGING_WORKER_MEMORY_MB of heap and as much native memory. */
    IMAGING_WORKERS: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(16)), 2),
    /** Cap on one worker's V8 heap (pdf.js) and, apart, on its native memory (canvas pixels, WebAssembly); a file needing more fails. */
    IMAGING_WORKER_MEMORY_MB: z._default(z.coerce.number().check(z.int(), z.gte(128), z.lte(2048)), 512),
    /** A thumbnail render still running after this many seconds is stopped and the file refused. */
    THUMBNAIL_TIMEOUT_SECONDS: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(120)), 8),
  }),
);

/**
 * The thumbnail renderer, the PDF text-layer reader and the searchable PDF writer on one bounded pool of worker threads, so that they
 * together never run more than IMAGING_WORKERS jobs on untrusted files. `prestart` starts the workers at once
 * (the local runtime); without it they start on the first job (a Lambda, where few invocations render and the
 * cold start should not pay for threads).
 */
export function imagingServices(
  env: NodeJS.ProcessEnv,
  { prestart }: { prestart: boolean },
): { thumbnails: CanvasThumbnailRenderer; textLayer: PdfTextLayerReader; searchablePdf: PoolSearchablePdfWriter } {
  const config = parseEnv(imagingEnvSchema, env);
  const pool = new ImagingPool({ size: config.IMAGING_WORKERS, memoryMb: config.IMAGING_WORKER_MEMORY_MB, prestart });
  const timeoutMs = config.THUMBNAIL_TIMEOUT_SECONDS * 1000;
  // A render waiting behind another of its document may wait out that one's limit before it is answered busy.
  const maxWaitMs = Math.max(10_000, timeoutMs + 2_000);
  return { thumbnails: new CanvasThumbnailRenderer({ pool, timeoutMs, maxWaitMs }), textLayer: new PdfTextLayerReader({ pool }), searchablePdf: new PoolSearchablePdfWriter({ pool }) };
}
