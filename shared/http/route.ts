import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type * as z from '../zod';
import type { Principal, Role } from '../domain/principal';
import type { HttpResponse } from './responses';

/**
 * Who may call a route: anyone, an authenticated caller with at least this role, or the deployment's operator
 * (the bootstrap admin: reads that span workspaces or describe the machine).
 */
export type Access = 'public' | Role | 'operator';

/** Which rate limits a route counts against beyond the caller's general one (see shared/domain/limits). */
export type RateLimitClass = 'upload';

/** What a route's `handle` gets: the parsed inputs and the caller. */
export interface RouteContext<Body, Query, Params, Caller extends Principal | null> {
  body: Body;
  query: Query;
  params: Params;
  principal: Caller;
  /** The raw bearer token, for routes that act on the token itself (refresh). */
  bearerToken: string | null;
  requestId: string;
  event: APIGatewayProxyEventV2;
}

type Out<S> = S extends z.ZodMiniType ? z.output<S> : undefined;

/**
 * A multipart route's form: the text fields (an object schema, parsed like a JSON body) and the file fields.
 * The handler reads the form with these (shared/http/multipart.ts); the contract documents them.
 */
export interface MultipartForm<F extends z.ZodMiniType = z.ZodMiniType> {
  fields: F;
  /** The names a file may come under (the first is the documented one). */
  fileFields: readonly string[];
  maxFiles: number;
}

/**
 * What a route accepts and who may call it: everything about it but its behaviour. Each group declares its
 * routes' contracts in `functions/<group>/schemas.ts`, keyed by operation id; the handler adds `handle`, and
 * the API contract (api-contract/) documents them, so the two read the same schemas.
 */
export interface RouteContract<
  A extends Access = Access,
  B extends z.ZodMiniType | undefined = z.ZodMiniType | undefined,
  Q extends z.ZodMiniType | undefined = z.ZodMiniType | undefined,
  P extends z.ZodMiniType | undefined = z.ZodMiniType | undefined,
> {
  /** The API Gateway route key, e.g. `POST /api/auth/login` (see shared/manifest.ts). */
  key: string;
  access: A;
  /** Uploads also count against the caller's upload limit. */
  rateLimit?: RateLimitClass;
  /**
   * Needs a session (a JWT from login, registration or single sign-on), not a personal API token: what could
   * mint tokens, change the password or manage users must not be reachable with a leaked token (403,
   * `details.reason = "session_required"`).
   */
  session?: true;
  body?: B;
  query?: Q;
  params?: P;
  /** A multipart/form-data body, read by the handler itself. */
  form?: MultipartForm;
}

/** A group's route contracts, by operation id. */
export type RouteContracts = Readonly<Record<string, RouteContract>>;

export interface RouteDefinition<
  A extends Access,
  B extends z.ZodMiniType | undefined,
  Q extends z.ZodMiniType | undefined,
  P extends z.ZodMiniType | undefined,
> extends RouteContract<A, B, Q, P> {
  handle(context: RouteContext<Out<B>, Out<Q>, Out<P>, A extends 'public' ? Principal | null : Principal>): Promise<HttpResponse>;
}

/** Declares a route's contract, keeping its schemas' types for the handler that serves it. */
export const contract = <
  A extends Access,
  B extends z.ZodMiniType | undefined = undefined,
  Q extends z.ZodMiniType | undefined = undefined,
  P extends z.ZodMiniType | undefined = undefined,
>(
  definition: RouteContract<A, B, Q, P>,
): RouteContract<A, B, Q, P> => definition;

/** A route with its types erased, as the pipeline stores it. */
export interface Route {
  key: string;
  access: Access;
  rateLimit?: RateLimitClass | undefined;
  session?: true | undefined;
  body?: z.ZodMiniType | undefined;
  query?: z.ZodMiniType | undefined;
  params?: z.ZodMiniType | undefined;
  form?: MultipartForm | undefined;
  handle(context: RouteContext<unknown, unknown, unknown, Principal | null>): Promise<HttpResponse>;
}

/** Declares a route; the schemas type the context that `handle` receives. */
export const route = <
  A extends Access,
  B extends z.ZodMiniType | undefined = undefined,
  Q extends z.ZodMiniType | undefined = undefined,
  P extends z.ZodMiniType | undefined = undefined,
>(
  definition: RouteDefinition<A, B, Q, P>,
): Route => definition as unknown as Route;
