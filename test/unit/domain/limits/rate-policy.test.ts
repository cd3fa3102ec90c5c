import { describe, expect, it } from 'vitest';
import { decide, type RatePolicy } from '../../../../shared/domain/limits/rate-policy';

const P: RatePolicy = { perMinute: 100, burst: 20 };
const NOW = 1_700_000_000_000;

/** Takes `count` requests at `now`, one after another, and returns the last decision and TAT. */
const burst = (count: number, now = NOW, start: number | null = null) => {
  let tat = start;
  let last = decide(P, tat, now);
  for (let i = 0; i < count; i++) {
    last = decide(P, tat, now);
    tat = last.nextTat;
  }
  return { ...last, tat };
};

describe('decide (the token bucket as one timestamp)', () => {
  it('allows the burst at once and counts the remaining requests down', () => {
    const first = decide(P, null, NOW);
    const twentieth = burst(20);

    expect(first.decision).toMatchObject({ allowed: true, limit: 100, remaining: 19 });
    expect(twentieth.decision).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('refuses the request after the burst, with the wait until the next token', () => {
    const { tat } = burst(20);

    const refused = decide(P, tat, NOW);

    expect(refused.decision).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
    expect(refused.nextTat).toBe(tat);
  });

  it('refills one request every 600 ms at 100 a minute', () => {
    const { tat } = burst(20);

    expect(decide(P, tat, NOW + 599).decision.allowed).toBe(false);
    expect(decide(P, tat, NOW + 600).decision.allowed).toBe(true);
  });

  it('resets when the bucket would be full again, in Unix seconds', () => {
    const { decision } = burst(1);

    expect(decision.resetAt).toBe(Math.ceil((NOW + 600) / 1000));
  });

  it('treats a bucket idle for long as full', () => {
    const { tat } = burst(20);

    const later = decide(P, tat, NOW + 3_600_000);

    expect(later.decision).toMatchObject({ allowed: true, remaining: 19 });
  });

  it('says how long to wait when far over the limit', () => {
    const slow: RatePolicy = { perMinute: 10, burst: 10 };
    let tat: number | null = null;
    for (let i = 0; i < 10; i++) tat = decide(slow, tat, NOW).nextTat;

    expect(decide(slow, tat, NOW).decision.retryAfterSeconds).toBe(6);
  });
});
