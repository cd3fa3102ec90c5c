import { readFile } from 'node:fs/promises';

/** What {@link watchRuntimeDuring} saw of a runtime while an attack ran. */
export interface RuntimeWatch {
  /** The slowest /api/health answer, in ms (a health check that timed out counts as its timeout). */
  slowestHealthMs: number;
  /** Health checks that answered other than 200, or not within the timeout. */
  unhealthy: number;
  /** The runtime process's resident memory before the attack and at its highest during it, in bytes. */
  rssBeforeBytes: number;
  peakRssBytes: number;
}

/** The resident memory of a process, from /proc (Linux), in bytes. */
export async function residentBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kilobytes = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
  if (!kilobytes) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kilobytes) * 1024;
}

/**
 * Polls `/api/health` and the runtime's resident memory every `intervalMs` while `work` runs, and reports the
 * slowest answer, the unhealthy ones and the peak memory. A health check gives up after `healthTimeoutMs`, so a
 * runtime that stops answering fails the watch instead of hanging it. `work`'s own rejection is not the
 * watch's business: the caller awaits `work` for that.
 */
export async function watchRuntimeDuring(
  runtime: { baseUrl: string; child: { pid?: number | undefined } },
  work: Promise<unknown>,
  options: { intervalMs?: number; healthTimeoutMs?: number } = {},
): Promise<RuntimeWatch> {
  const { intervalMs = 200, healthTimeoutMs = 10_000 } = options;
  const pid = runtime.child.pid;
  if (pid === undefined) throw new Error('the runtime has no process id');
  const rssBeforeBytes = await residentBytes(pid);
  let done = false;
  void work.then(
    () => (done = true),
    () => (done = true),
  );
  const watch: RuntimeWatch = { slowestHealthMs: 0, unhealthy: 0, rssBeforeBytes, peakRssBytes: rssBeforeBytes };
  while (!done) {
    const started = performance.now();
    const healthy = await fetch(`${runtime.baseUrl}/api/health`, { signal: AbortSignal.timeout(healthTimeoutMs) }).then(
      async (response) => {
        await response.arrayBuffer();
        return response.status === 200;
      },
      () => false,
    );
    watch.slowestHealthMs = Math.max(watch.slowestHealthMs, performance.now() - started);
    if (!healthy) watch.unhealthy++;
    watch.peakRssBytes = Math.max(watch.peakRssBytes, await residentBytes(pid));
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return watch;
}
