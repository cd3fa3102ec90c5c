import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onSession, setRefresher, setSession } from '../../../../web/src/session';

const user = { id: 'u1', username: 'ada', email: 'ada@example.com', role: 'editor' as const };

describe('the console session', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-29T08:00:00Z'));
  });

  afterEach(() => {
    setSession(null);
    vi.useRealTimers();
  });

  it('refreshes the token a minute before it expires', () => {
    const refresh = vi.fn(async () => true);
    setRefresher(refresh);

    setSession({ token: 't1', expiresAt: Date.now() + 15 * 60_000, user });
    vi.advanceTimersByTime(14 * 60_000 - 1);
    const before = refresh.mock.calls.length;
    vi.advanceTimersByTime(1);

    expect(before).toBe(0);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('schedules no refresh once signed out, and tells its listeners', () => {
    const refresh = vi.fn(async () => true);
    const seen: (string | null)[] = [];
    setRefresher(refresh);
    const stop = onSession((session) => seen.push(session?.token ?? null));

    setSession({ token: 't1', expiresAt: Date.now() + 15 * 60_000, user });
    setSession(null);
    vi.advanceTimersByTime(60 * 60_000);
    stop();

    expect(refresh).not.toHaveBeenCalled();
    expect(seen).toEqual(['t1', null]);
  });
});
