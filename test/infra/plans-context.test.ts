import { describe, expect, it } from 'vitest';
import { PLAN_QUOTAS, plansFromContext } from '../../lib/context';
import { parsePlans, QUOTAS } from '../../shared/domain/quotas/plans';

const context = (values: Record<string, unknown>) => (key: string) => values[key];
const PLANS = JSON.stringify({
  free: { documents_stored: 100, bytes_stored: 104857600, ocr_pages_per_month: 200, sources: 1, members: 3, api_tokens: 2 },
  team: { documents_stored: 'unlimited', bytes_stored: 'unlimited', ocr_pages_per_month: 5000, sources: 10, members: 50, api_tokens: 'unlimited' },
});

describe('plans from CDK context', () => {
  it('checks the quotas the runtime knows, no more and no fewer', () => {
    expect([...PLAN_QUOTAS]).toEqual([...QUOTAS]);
  });

  it('gives every function PLANS and DEFAULT_PLAN as the runtime parses them', () => {
    const environment = plansFromContext(context({ plans: PLANS, defaultPlan: 'team' }));

    expect(environment).toEqual({ PLANS, DEFAULT_PLAN: 'team' });
    expect(parsePlans(environment!['PLANS'], environment!['DEFAULT_PLAN']).defaultPlan).toBe('team');
  });

  it('sets nothing without plans: one plan without limits', () => {
    expect(plansFromContext(context({}))).toBeUndefined();
  });

  it.each([
    [{ plans: '{"free": {"documents_stored": 1}}' }, 'Context "plans": free.bytes_stored'],
    [{ plans: '{"free": {"documents_stored": -1}}' }, 'Context "plans": free.documents_stored'],
    [{ plans: 'not json' }, 'Context "plans": is not JSON'],
    [{ plans: PLANS, defaultPlan: 'gold' }, 'Context "defaultPlan": "gold" is not one of the plans'],
    [{ defaultPlan: 'free' }, 'Context "defaultPlan": is given without "plans"'],
  ])('stops the synth naming the key: %j', (values, message) => {
    expect(() => plansFromContext(context(values))).toThrow(message);
  });
});
