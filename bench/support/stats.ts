/** Numbers the benchmarks share: percentiles, rounding, and seeded data. */

/** The nearest-rank percentile `p` (0-100) of the values, in any order. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

/** Rounds to `digits` decimals (one by default) for reports. */
export const round = (value: number, digits = 1): number => Math.round(value * 10 ** digits) / 10 ** digits;

/** A seeded generator (mulberry32) of numbers in [0, 1): the same data on every run, so runs compare. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
