import { setPriority } from 'node:os';

/**
 * The nice value of background work (OCR processes, imaging threads): CPU-bound work on untrusted files yields
 * the cores to the thread that answers requests, so `/api/health` and the API stay responsive while every core
 * is busy reading files. Lowering one's own priority needs no privilege.
 */
export const BACKGROUND_NICENESS = 10;

/**
 * Lowers a process's priority to {@link BACKGROUND_NICENESS}; `pid` 0 is the calling thread (Linux keeps a nice
 * value per thread). A process that already ended, or a platform that refuses, keeps its priority: the work
 * still runs, only less politely.
 */
export function runInBackground(pid = 0): void {
  try {
    setPriority(pid, BACKGROUND_NICENESS);
  } catch {
    // ESRCH (already gone) or EACCES/EPERM: nothing to do.
  }
}
