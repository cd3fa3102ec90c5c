import { describe, expect, it } from 'vitest';
import { THROTTLED_RETRY_MAX_SECONDS, throttledRetryDelaySeconds } from '../../../shared/queue/redelivery';

describe('throttledRetryDelaySeconds', () => {
  it('waits between 30 and 60 seconds after the first throttled delivery', () => {
    expect(throttledRetryDelaySeconds(1, () => 0)).toBe(30);
    expect(throttledRetryDelaySeconds(1, () => 0.999)).toBe(60);
  });

  it('doubles the ceiling with each receive of the message', () => {
    const ceilings = [1, 2, 3, 4].map((receiveCount) => throttledRetryDelaySeconds(receiveCount, () => 0.999));

    expect(ceilings).toEqual([60, 120, 240, 480]);
  });

  it('never waits longer than 15 minutes, however often the message came back', () => {
    expect(throttledRetryDelaySeconds(5, () => 0.999)).toBe(THROTTLED_RETRY_MAX_SECONDS);
    expect(throttledRetryDelaySeconds(40, () => 0.999)).toBe(THROTTLED_RETRY_MAX_SECONDS);
  });

  it('jitters only the lower half, so a later delivery never waits less than half its ceiling', () => {
    expect(throttledRetryDelaySeconds(3, () => 0)).toBe(120);
    expect(throttledRetryDelaySeconds(3, () => 0.5)).toBe(180);
  });

  it('takes a missing or malformed receive count as the first delivery', () => {
    expect(throttledRetryDelaySeconds(Number.NaN, () => 0.999)).toBe(60);
    expect(throttledRetryDelaySeconds(0, () => 0.999)).toBe(60);
  });
});
