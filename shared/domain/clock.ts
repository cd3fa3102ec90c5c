/** Time as the domain sees it; injected so that expiry rules can be tested without waiting. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
