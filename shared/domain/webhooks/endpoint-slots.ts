/** Deliveries one worker process sends to one endpoint at once, at most. */
export const MAX_IN_FLIGHT_PER_ENDPOINT = 2;
/** A delivery held back because its endpoint is busy waits this long before it is tried again (no attempt spent). */
export const BUSY_ENDPOINT_DELAY_SECONDS = 5;

/**
 * Bounds the deliveries in flight per endpoint within one worker process, so that a slow or dead endpoint
 * (each attempt may take the full 10 s) holds at most {@link MAX_IN_FLIGHT_PER_ENDPOINT} of the worker's
 * slots and the others keep serving every other endpoint.
 */
export class EndpointSlots {
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly limit = MAX_IN_FLIGHT_PER_ENDPOINT) {}

  /** Takes a slot for the endpoint; false when it has `limit` in flight already. */
  tryTake(webhookId: string): boolean {
    const taken = this.inFlight.get(webhookId) ?? 0;
    if (taken >= this.limit) return false;
    this.inFlight.set(webhookId, taken + 1);
    return true;
  }

  release(webhookId: string): void {
    const taken = (this.inFlight.get(webhookId) ?? 1) - 1;
    if (taken > 0) this.inFlight.set(webhookId, taken);
    else this.inFlight.delete(webhookId);
  }
}
