/**
 * Attempts of a read-decide-write that keeps losing optimistic-concurrency races (another writer changed what
 * was read) before it gives up. The one limit of every such loop in the service.
 */
export const MAX_OPTIMISTIC_ATTEMPTS = 4;

/** What an attempt returns when it lost the race: it is run again, on fresh data. */
export const LOST_RACE: unique symbol = Symbol('lost the race');

export interface OptimisticRetryOptions {
  /** Attempts in all; {@link MAX_OPTIMISTIC_ATTEMPTS} unless a loop has a reason to differ. */
  attempts?: number;
  /** A pause before attempt n + 1, for writers that collide on one hot item (jitter spreads them). */
  backoffMs?: (attempt: number) => number;
}

/**
 * Runs `attempt` (read, decide, conditional write) until it returns anything but {@link LOST_RACE}, at most
 * `options.attempts` times. When every attempt lost, `exhausted` answers: it throws the last conflict, or
 * returns what the caller gives up with.
 */
export async function retryLostRaces<T>(
  attempt: (attempt: number) => Promise<T | typeof LOST_RACE>,
  exhausted: () => T,
  options: OptimisticRetryOptions = {},
): Promise<T> {
  const attempts = options.attempts ?? MAX_OPTIMISTIC_ATTEMPTS;
  for (let n = 1; n <= attempts; n++) {
    const outcome = await attempt(n);
    if (outcome !== LOST_RACE) return outcome;
    const pause = n < attempts ? options.backoffMs?.(n) : undefined;
    if (pause) await new Promise((resolve) => setTimeout(resolve, pause));
  }
  return exhausted();
}
