import { describe, expect, it } from 'vitest';
import { onFirstUse } from '../../../shared/adapters/first-use';
import { rejectionOf } from '../../support/rejection';

describe('onFirstUse', () => {
  it('loads nothing until it is first called', () => {
    let loads = 0;

    onFirstUse(async () => ++loads);

    expect(loads).toBe(0);
  });

  it('loads once for every caller, those that called while the load ran included', async () => {
    let loads = 0;
    const value = onFirstUse(async () => ({ load: ++loads }));

    const [first, second] = await Promise.all([value(), value()]);
    const later = await value();

    expect(loads).toBe(1);
    expect(second).toBe(first);
    expect(later).toBe(first);
  });

  it('tries again on the next call after a load failed', async () => {
    let loads = 0;
    const value = onFirstUse(async () => {
      loads += 1;
      if (loads === 1) throw new Error('secret unreadable');
      return 'key';
    });

    const failure = await rejectionOf(value(), Error);
    const retried = await value();

    expect(failure.message).toBe('secret unreadable');
    expect(retried).toBe('key');
    expect(loads).toBe(2);
  });
});
