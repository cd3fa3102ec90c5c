import { describe, expect, it } from 'vitest';
import { checkHealth, type SlowHealthCheck } from '../../../../shared/domain/health/check-health';
import type { HealthProbe } from '../../../../shared/domain/health/ports';

const answersAfter = (name: string, ms: number): HealthProbe => ({
  name,
  check: () => new Promise((resolve) => setTimeout(resolve, ms)),
});

const failsAfter = (name: string, ms: number): HealthProbe => ({
  name,
  check: () => new Promise((_, reject) => setTimeout(() => reject(new Error(`${name} is down`)), ms)),
});

describe('checkHealth', () => {
  it('reports a check slower than its bound with every probe’s time, naming the slow one', async () => {
    // Arrange
    const slow: SlowHealthCheck[] = [];

    // Act
    await checkHealth([answersAfter('fast', 0), answersAfter('stalled', 120)], { slowAfterMs: 50, onSlow: (check) => slow.push(check) });

    // Assert
    expect(slow).toHaveLength(1);
    expect(slow[0]!.duration_ms).toBeGreaterThanOrEqual(100);
    expect(slow[0]!.probes['stalled']).toMatchObject({ state: 'ok' });
    expect(slow[0]!.probes['stalled']!.duration_ms).toBeGreaterThanOrEqual(100);
    expect(slow[0]!.probes['fast']!.duration_ms).toBeLessThan(slow[0]!.probes['stalled']!.duration_ms);
  });

  it('reports nothing for a check within its bound', async () => {
    // Arrange
    const slow: SlowHealthCheck[] = [];

    // Act
    await checkHealth([answersAfter('fast', 0)], { slowAfterMs: 500, onSlow: (check) => slow.push(check) });

    // Assert
    expect(slow).toEqual([]);
  });

  it('reports a probe that timed out as unavailable, with its error, and the check as unavailable', async () => {
    // Arrange
    const slow: SlowHealthCheck[] = [];

    // Act
    const report = await checkHealth([answersAfter('fast', 0), answersAfter('hung', 1000)], {
      timeoutMs: 80,
      slowAfterMs: 50,
      onSlow: (check) => slow.push(check),
    });

    // Assert
    expect(report).toEqual({ status: 'unavailable', components: { fast: 'ok', hung: 'unavailable' } });
    expect(slow[0]!.probes['hung']).toMatchObject({ state: 'unavailable', error: 'timeout' });
  });

  it('still reports a probe that fails as unavailable', async () => {
    // Act
    const report = await checkHealth([failsAfter('down', 0), answersAfter('fast', 0)]);

    // Assert
    expect(report).toEqual({ status: 'unavailable', components: { down: 'unavailable', fast: 'ok' } });
  });
});
