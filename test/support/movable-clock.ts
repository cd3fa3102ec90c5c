import type { Clock } from '../../shared/domain/clock';

/** A clock the test moves forward, starting now. */
export const movableClock = (): Clock & { advance(seconds: number): void } => {
  let now = Date.now();
  return {
    now: () => new Date(now),
    advance: (seconds) => (now += seconds * 1000),
  };
};
