import { describe, expect, it } from 'vitest';
import { MAX_QUEUE_DELAY_SECONDS } from '../../../../shared/domain/queues';
import { deferralDelaySeconds } from '../../../../shared/domain/ocr/throttling';

describe('deferralDelaySeconds', () => {
  it('waits between 30 and 60 seconds after the first deferral', () => {
    expect(deferralDelaySeconds(1, () => 0)).toBe(30);
    expect(deferralDelaySeconds(1, () => 0.999)).toBe(60);
  });

  it('doubles the ceiling with each deferral of the run', () => {
    const ceilings = [1, 2, 3, 4].map((deferrals) => deferralDelaySeconds(deferrals, () => 0.999));

    expect(ceilings).toEqual([60, 120, 240, 480]);
  });

  it('never waits longer than the queue can hold a message back, however often the job was deferred', () => {
    expect(deferralDelaySeconds(5, () => 0.999)).toBe(MAX_QUEUE_DELAY_SECONDS);
    expect(deferralDelaySeconds(400, () => 0.999)).toBe(MAX_QUEUE_DELAY_SECONDS);
  });

  it('jitters only the lower half, so a later deferral never waits less than half its ceiling', () => {
    expect(deferralDelaySeconds(3, () => 0)).toBe(120);
    expect(deferralDelaySeconds(3, () => 0.5)).toBe(180);
  });

  it('takes a missing or malformed count as the first deferral', () => {
    expect(deferralDelaySeconds(Number.NaN, () => 0.999)).toBe(60);
    expect(deferralDelaySeconds(0, () => 0.999)).toBe(60);
  });
});
