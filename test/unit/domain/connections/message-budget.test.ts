import { describe, expect, it } from 'vitest';
import { MESSAGE_BUDGET, MessageBudget, MessageBudgets, type Admission, type MessageBudgetLimits } from '../../../../shared/domain/connections/message-budget';

const LIMITS: MessageBudgetLimits = { burst: 5, perSecond: 2, refusals: 2, beforeAuthMessages: 3, beforeAuthBytes: 100, invalidMessages: 4 };
const NOW = 1_700_000_000_000;

/** A budget of a connection known to be authenticated, so that only the rate applies. */
const authenticated = (limits = LIMITS) => {
  const budget = new MessageBudget(limits);
  budget.authenticated();
  return budget;
};

/** Admits `count` messages of 10 bytes at `now` and returns the verdicts. */
const admitMany = (budget: MessageBudget, count: number, now = NOW): Admission['verdict'][] =>
  Array.from({ length: count }, () => budget.admit(10, now).verdict);

describe('MessageBudget', () => {
  it('serves a burst of messages at once', () => {
    const budget = authenticated();

    const verdicts = admitMany(budget, 5);

    expect(verdicts).toEqual(Array(5).fill('serve'));
  });

  it('answers a message past the burst with RATE_LIMITED and keeps the connection', () => {
    const budget = authenticated();
    admitMany(budget, 5);

    const admission = budget.admit(10, NOW);

    expect(admission).toEqual({
      verdict: 'refuse',
      error: { type: 'error', data: { code: 'RATE_LIMITED', message: expect.any(String), details: expect.objectContaining({ reason: 'message_rate', burst: 5, per_second: 2 }) } },
    });
  });

  it('closes the connection on the over-budget message after its refusals in a row', () => {
    const budget = authenticated();
    admitMany(budget, 5);

    const verdicts = admitMany(budget, 3);

    expect(verdicts).toEqual(['refuse', 'refuse', 'close']);
  });

  it('drops every message once it has decided to close the connection', () => {
    const budget = authenticated();
    admitMany(budget, 8);

    const later = budget.admit(10, NOW + 3_600_000);

    expect(later).toEqual({ verdict: 'drop' });
  });

  it('refills at its rate, one message every half second at 2 a second', () => {
    const budget = authenticated();
    admitMany(budget, 5);

    const early = budget.admit(10, NOW + 499).verdict;
    const onTime = budget.admit(10, NOW + 500).verdict;

    expect([early, onTime]).toEqual(['refuse', 'serve']);
  });

  it('forgives refusals once a message is served again', () => {
    const budget = authenticated();
    admitMany(budget, 5);
    admitMany(budget, 2);

    const served = budget.admit(10, NOW + 500).verdict;
    const afterwards = admitMany(budget, 3, NOW + 500);

    expect(served).toBe('serve');
    expect(afterwards).toEqual(['refuse', 'refuse', 'close']);
  });

  it('closes a connection not known to be authenticated on the message past its allowance before auth', () => {
    const budget = new MessageBudget(LIMITS);

    const verdicts = admitMany(budget, 4);
    const closing = budget.admit(10, NOW);

    expect(verdicts).toEqual(['serve', 'serve', 'serve', 'close']);
    expect(closing).toEqual({ verdict: 'drop' });
  });

  it('says why it closes a connection before auth, with the allowance', () => {
    const budget = new MessageBudget(LIMITS);
    admitMany(budget, 3);

    const admission = budget.admit(10, NOW);

    expect(admission).toMatchObject({
      verdict: 'close',
      error: { type: 'error', data: { code: 'RATE_LIMITED', details: { reason: 'before_auth', limit_messages: 3, limit_bytes: 100 } } },
    });
  });

  it('closes a connection not known to be authenticated once its messages before auth exceed the byte allowance', () => {
    const budget = new MessageBudget(LIMITS);

    const first = budget.admit(60, NOW).verdict;
    const second = budget.admit(41, NOW).verdict;

    expect([first, second]).toEqual(['serve', 'close']);
  });

  it('lifts the allowance before auth once the connection is known to be authenticated', () => {
    const budget = new MessageBudget(LIMITS);
    admitMany(budget, 3);

    budget.authenticated();
    const verdict = budget.admit(1000, NOW + 10_000).verdict;

    expect(verdict).toBe('serve');
  });

  it('lets invalid messages pass until the last one allowed, which closes the connection', () => {
    const budget = authenticated();

    const answers = Array.from({ length: 4 }, () => budget.invalidMessage());

    expect(answers.slice(0, 3)).toEqual([null, null, null]);
    expect(answers[3]).toMatchObject({ type: 'error', data: { code: 'VALIDATION_ERROR', details: { reason: 'invalid_messages', limit: 4 } } });
    expect(budget.admit(10, NOW + 10_000)).toEqual({ verdict: 'drop' });
  });

  it('leaves a P client far inside the default budget: auth, subscribe, and a ping every second for a minute', () => {
    const budget = new MessageBudget(MESSAGE_BUDGET);
    const first = admitMany(budget, 2);
    budget.authenticated();

    const pings = Array.from({ length: 60 }, (_, second) => budget.admit(16, NOW + second * 1000).verdict);

    expect([...first, ...pings]).toEqual(Array(62).fill('serve'));
  });
});

describe('MessageBudgets', () => {
  it('keeps one budget per connection until it is forgotten', () => {
    const budgets = new MessageBudgets(LIMITS);
    const budget = budgets.of('c1');

    const again = budgets.of('c1');
    budgets.forget('c1');
    const fresh = budgets.of('c1');

    expect(again).toBe(budget);
    expect(fresh).not.toBe(budget);
  });

  it('makes room by dropping the oldest budget once it holds its capacity', () => {
    const budgets = new MessageBudgets(LIMITS, 2);
    const oldest = budgets.of('c1');
    budgets.of('c2');

    budgets.of('c3');

    expect(budgets.size).toBe(2);
    expect(budgets.of('c1')).not.toBe(oldest);
  });
});
