import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who a request acts for, carried through its async calls: the HTTP pipeline sets it around each request (its
 * user once authenticated, the token when one was presented, the client's address and user agent, the request
 * id), and the DynamoDB client stamps it on what the request writes (see dynamodb/actor-stamp.ts), from which
 * the audit log is derived. Outside a request (a worker, a schedule) there is none.
 */
export interface RequestActor {
  user_id: string | null;
  token_id: string | null;
  /** The acting user's workspace (null before authentication). */
  workspace_id: string | null;
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
}

const actors = new AsyncLocalStorage<RequestActor>();

/** Runs `work` with `actor` as the actor of everything it writes. */
export const runAsActor = <T>(actor: RequestActor, work: () => T): T => actors.run(actor, work);

/** The actor of the request being served, if any. */
export const currentActor = (): RequestActor | undefined => actors.getStore();

/** Runs `work` outside any request's actor: what it writes is not stamped (a stamp written on its own). */
export const withoutActor = <T>(work: () => T): T => actors.exit(work);
