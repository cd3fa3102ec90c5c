import { describe, expect, it } from 'vitest';
import { parsePlans, planOf, UNLIMITED_CATALOG, withinLimit } from '../../../../shared/domain/quotas/plans';

const plan = (overrides: Record<string, unknown> = {}) => ({
  documents_stored: 100,
  bytes_stored: 'unlimited',
  ocr_pages_per_month: 50,
  sources: 1,
  members: 3,
  api_tokens: 2,
  ...overrides,
});

describe('parsePlans', () => {
  it('gives one plan without limits when none is configured', () => {
    expect(parsePlans(undefined, undefined)).toEqual(UNLIMITED_CATALOG);
  });

  it('reads every quota of every plan, unlimited as a value, and the first plan as the default', () => {
    const catalog = parsePlans(JSON.stringify({ free: plan(), team: plan({ members: 'unlimited' }) }), undefined);

    expect(catalog.defaultPlan).toBe('free');
    expect(catalog.plans['team']!.members).toBe('unlimited');
    expect(catalog.plans['free']!.bytes_stored).toBe('unlimited');
  });

  it.each([
    ['not json', 'is not JSON'],
    [JSON.stringify({ free: plan({ members: -1 }) }), 'free.members: must be a whole number of at least 0 or "unlimited"'],
    [JSON.stringify({ free: plan({ seats: 3 }) }), 'free.seats: is not a quota'],
    [JSON.stringify({ free: { members: 3 } }), 'free.documents_stored: must be'],
    [JSON.stringify({ Free: plan() }), '"Free": a plan\'s name'],
  ])('refuses %s naming the place', (json, message) => {
    expect(() => parsePlans(json, undefined)).toThrow(message);
  });

  it('refuses a default plan that is not one of the plans', () => {
    expect(() => parsePlans(JSON.stringify({ free: plan() }), 'gold')).toThrow('default plan "gold" is not one of the plans (free)');
  });
});

describe('planOf and withinLimit', () => {
  it('holds a workspace whose plan was removed to the default plan', () => {
    const catalog = parsePlans(JSON.stringify({ free: plan(), team: plan({ members: 50 }) }), 'free');

    expect(planOf(catalog, 'gone').members).toBe(3);
  });

  it('lets use reach the limit but not pass it; unlimited always', () => {
    expect([withinLimit(10, 7, 3), withinLimit(10, 8, 3), withinLimit('unlimited', 1e12, 1)]).toEqual([true, false, true]);
  });
});
