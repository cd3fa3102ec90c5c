import { describe, expect, it } from 'vitest';
import { LOST_RACE, MAX_OPTIMISTIC_ATTEMPTS, retryLostRaces } from '../../../shared/domain/optimistic-retry';

describe('retryLostRaces', () => {
  it('answers what the first attempt that does not lose the race answers', async () => {
    const seen: number[] = [];

    const result = await retryLostRaces(
      async (attempt) => {
        seen.push(attempt);
        return attempt < 3 ? LOST_RACE : 'written';
      },
      () => 'gave up',
    );

    expect(result).toBe('written');
    expect(seen).toEqual([1, 2, 3]);
  });

  it(`gives up after ${MAX_OPTIMISTIC_ATTEMPTS} lost races, with what exhausted answers`, async () => {
    let attempts = 0;

    const result = await retryLostRaces(
      async () => {
        attempts++;
        return LOST_RACE;
      },
      () => 'gave up',
    );

    expect(result).toBe('gave up');
    expect(attempts).toBe(MAX_OPTIMISTIC_ATTEMPTS);
  });

  it('lets exhausted throw the last conflict', async () => {
    const conflict = new Error('condition failed');

    const outcome = retryLostRaces(async () => LOST_RACE, () => {
      throw conflict;
    });

    await expect(outcome).rejects.toBe(conflict);
  });

  it('passes an error of an attempt through without retrying', async () => {
    let attempts = 0;

    const outcome = retryLostRaces(async () => {
      attempts++;
      throw new Error('table gone');
    }, () => 'gave up');

    await expect(outcome).rejects.toThrow('table gone');
    expect(attempts).toBe(1);
  });

  it('pauses between attempts as asked, but not after the last', async () => {
    const pauses: number[] = [];

    await retryLostRaces(async () => LOST_RACE, () => null, {
      attempts: 3,
      backoffMs: (attempt) => {
        pauses.push(attempt);
        return 1;
      },
    });

    expect(pauses).toEqual([1, 2]);
  });
});
