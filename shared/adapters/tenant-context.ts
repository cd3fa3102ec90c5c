import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The tenant (workspace) a piece of queued work runs for, carried through its async calls: the local queue
 * poller sets it around a handler call (one tenant per call), and the Tesseract page pool reads it to let
 * tenants take turns for its processes. Outside any call there is none.
 */
const tenants = new AsyncLocalStorage<string>();

/** Runs `work` with `tenant` as the current tenant of everything it calls. */
export const runForTenant = <T>(tenant: string, work: () => T): T => tenants.run(tenant, work);

/** The tenant the current call runs for, if a queue poller set one. */
export const currentTenant = (): string | undefined => tenants.getStore();
