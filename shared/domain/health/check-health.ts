import type { HealthProbe } from './ports';

export interface HealthReport {
  status: 'ok' | 'unavailable';
  components: Record<string, 'ok' | 'unavailable'>;
}

/** A health check slower than this reports every probe's time, so a stall names the dependency behind it. */
export const SLOW_HEALTH_CHECK_MS = 500;

/** How long a slow check and each of its probes took (ms), and how each probe ended. */
export interface SlowHealthCheck {
  duration_ms: number;
  probes: Record<string, { duration_ms: number; state: 'ok' | 'unavailable'; error?: string }>;
}

export interface HealthCheckOptions {
  /** Each probe's bound; a probe that has not answered by then is unavailable. */
  timeoutMs?: number;
  /** A check that takes longer than this is handed to `onSlow` (default {@link SLOW_HEALTH_CHECK_MS}). */
  slowAfterMs?: number;
  /** Told of every check slower than `slowAfterMs`, with each probe's time (the handler logs it). */
  onSlow?: (check: SlowHealthCheck) => void;
}

/** Asks every probe at once, each bounded by `timeoutMs`; the service is ok only when all are. */
export async function checkHealth(probes: HealthProbe[], options: HealthCheckOptions = {}): Promise<HealthReport> {
  const { timeoutMs = 2000, slowAfterMs = SLOW_HEALTH_CHECK_MS, onSlow } = options;
  const started = performance.now();
  const results = await Promise.all(
    probes.map(async (probe) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
      });
      const begun = performance.now();
      try {
        await Promise.race([probe.check(), timeout]);
        return { name: probe.name, state: 'ok' as const, ms: performance.now() - begun };
      } catch (error) {
        return { name: probe.name, state: 'unavailable' as const, ms: performance.now() - begun, error: (error as Error)?.message };
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const durationMs = performance.now() - started;
  if (onSlow && durationMs > slowAfterMs) {
    // The probes' times side by side tell one stalled dependency (one probe long) from a stalled event loop
    // (every probe as long as the check).
    onSlow({
      duration_ms: Math.round(durationMs),
      probes: Object.fromEntries(
        results.map(({ name, state, ms, error }) => [name, { duration_ms: Math.round(ms), state, ...(error ? { error } : {}) }]),
      ),
    });
  }
  const components = Object.fromEntries(results.map(({ name, state }) => [name, state]));
  return { status: results.every(({ state }) => state === 'ok') ? 'ok' : 'unavailable', components };
}
