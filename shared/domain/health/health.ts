/** One dependency the service needs to answer requests (a table, a bucket, a queue, an engine). */
export interface HealthProbe {
  name: string;
  /** Resolves when the dependency answers; rejects otherwise. */
  check(): Promise<void>;
}

export interface HealthReport {
  status: 'ok' | 'unavailable';
  components: Record<string, 'ok' | 'unavailable'>;
}

/** Asks every probe at once, each bounded by `timeoutMs`; the service is ok only when all are. */
export async function checkHealth(probes: HealthProbe[], timeoutMs = 2000): Promise<HealthReport> {
  const results = await Promise.all(
    probes.map(async (probe) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
      });
      try {
        await Promise.race([probe.check(), timeout]);
        return [probe.name, 'ok'] as const;
      } catch {
        return [probe.name, 'unavailable'] as const;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const components = Object.fromEntries(results);
  return { status: results.every(([, state]) => state === 'ok') ? 'ok' : 'unavailable', components };
}
