import { setPriority } from 'node:os';

/**
 * The nice value of background work (OCR processes, imaging processes): CPU-bound work on untrusted files yields
 * the cores to the thread that answers requests, so `/api/health` and the API stay responsive while every core
 * is busy reading files. Lowering one's own priority needs no privilege.
 */
export const BACKGROUND_NICENESS = 10;

/**
 * Lowers the calling thread's priority to {@link BACKGROUND_NICENESS} (Linux keeps a nice value per thread): the
 * imaging workers call it; the OCR commands get it from the process launcher, which runs at it. A platform that
 * refuses keeps the priority: the work still runs, only less politely.
 */
export function runInBackground(): void {
  try {
    setPriority(0, BACKGROUND_NICENESS);
  } catch {
    // EACCES/EPERM: nothing to do.
  }
}
