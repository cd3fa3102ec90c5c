import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { v1RouteKey, type DeprecationTable } from '../manifest';
import { rateLimited, type RequestOrigin } from '../domain/limits/limit-request';
import type { RateDecision } from '../domain/limits/rate-policy';
import { forbidden, noEndpoint, unauthorized } from '../domain/errors';
import { hasRole, type Principal } from '../domain/principal';
import { corsHeaders, preflightResponse, type CorsOrigins } from './cors';
import { errorResponse } from './error-response';
import { bearerToken, header, jsonBody } from './request';
import type { HttpResponse } from './responses';
import type { Route } from './route';
import { NO_PARAMETERS, parseWith } from './validation';
import { deprecationHeaders } from './versions';
import { clientAddress, type EdgeOrigin } from './edge';
import { currentLogContext, withLogContext } from '../observability/log-context';
import { runAsActor } from '../adapters/actor-context';
import { inRequestSpan } from '../adapters/otel/process-tracing';

export interface HttpHandlerOptions {
  routes: Route[];
  corsOrigins: CorsOrigins;
  /** Resolves a bearer token to its caller; required when any route is not public. */
  authenticate?: (token: string) => Promise<Principal>;
  /**
   * Counts the request against its caller's rate limits; null when no bucket could be read (the request goes
   * through). Without it the group is not limited (health).
   */
  limits?: (origin: RequestOrigin) => Promise<RateDecision | null>;
  /** Deprecated routes, whose answers carry Deprecation, Sunset and Link; the manifest's by default. */
  deprecations?: DeprecationTable;
  /** Set behind the cloud's CloudFront edge: requests must come through it, and it names the client's address. */
  edge?: EdgeOrigin;
}

export type HttpHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<HttpResponse>;

type State = {
  requestId: string;
};

type Request = middy.Request<APIGatewayProxyEventV2, HttpResponse, Error, Context, State>;

const newRequestId = (event: APIGatewayProxyEventV2, context: Context): string =>
  event.requestContext?.requestId ?? context.awsRequestId ?? crypto.randomUUID();

/** The id of the request being served: the handler runs each request in a log context that names it. */
const requestIdOf = (event: APIGatewayProxyEventV2, context: Context): string => currentLogContext()['request_id'] ?? newRequestId(event, context);

/** The rate-limit decision of each request in flight, for its response's headers, whatever the outcome. */
const decisions = new WeakMap<APIGatewayProxyEventV2, RateDecision>();

const rateLimitHeaders = (decision: RateDecision | undefined): Record<string, string> =>
  decision
    ? {
        'x-ratelimit-limit': String(decision.limit),
        'x-ratelimit-remaining': String(decision.remaining),
        'x-ratelimit-reset': String(decision.resetAt),
      }
    : {};

/**
 * Every response, error or not, carries the request id, the CORS headers of the caller's origin, where the
 * request was counted its rate limit, and on a deprecated route its deprecation headers.
 */
const responseHeaders = (
  corsOrigins: CorsOrigins,
  deprecations: DeprecationTable | undefined,
): MiddlewareObj<APIGatewayProxyEventV2, HttpResponse, Error, Context> => {
  const decorate = (request: Request) => {
    if (!request.response) return;
    request.response.headers = {
      ...request.response.headers,
      ...corsHeaders(corsOrigins, header(request.event, 'origin')),
      ...rateLimitHeaders(decisions.get(request.event)),
      ...deprecationHeaders(request.event.routeKey, request.event.pathParameters, deprecations),
      'x-request-id': request.internal.requestId,
    };
  };
  return {
    before: (request) => {
      (request as Request).internal.requestId = requestIdOf(request.event, request.context);
    },
    after: (request) => decorate(request as Request),
    onError: (request) => decorate(request as Request),
  };
};

/** The error boundary: whatever was thrown becomes the P error body (see errorResponse). */
const errorBoundary = (): MiddlewareObj<APIGatewayProxyEventV2, HttpResponse, Error, Context> => ({
  onError: (request) => {
    request.response = errorResponse(request.error, (request as Request).internal.requestId);
  },
});

/**
 * Builds the Lambda handler of one endpoint group: it dispatches on the API Gateway route key (a v2 key on its
 * v1 twin, since v2 serves the v1 surface), authorises by role, parses path, query and body with the route's
 * zod schemas, and shapes every outcome as P expects. A route key it does not serve (the `$default` route) is
 * a 404, or a CORS preflight for OPTIONS.
 */
export function httpHandler(options: HttpHandlerOptions): HttpHandler {
  const routes = new Map(options.routes.map((r) => [r.key, r]));

  const dispatch = async (event: APIGatewayProxyEventV2, context: Context): Promise<HttpResponse> => {
    const requestId = requestIdOf(event, context);
    const sourceIp = await clientAddress(event, options.edge);
    const route = routes.get(v1RouteKey(event.routeKey));
    const method = event.requestContext.http.method;
    if (!route) {
      if (method === 'OPTIONS') return preflightResponse(options.corsOrigins, header(event, 'origin'));
      throw noEndpoint(method, event.rawPath);
    }
    const token = bearerToken(event);
    const principal = await authorise(route, token);
    await limit(event, route, principal, sourceIp);
    const params = route.params ? parseWith(route.params, event.pathParameters ?? {}, 'path') : undefined;
    // A route without a query schema takes no parameters: `?x=1` there is as unknown as anywhere else.
    const query = parseWith(route.query ?? NO_PARAMETERS, event.queryStringParameters ?? {}, 'query');
    const handle = () =>
      route.handle({
        params,
        query: route.query ? query : undefined,
        body: route.body ? parseWith(route.body, jsonBody(event), 'body') : undefined,
        principal,
        bearerToken: token,
        requestId,
        event,
      });
    // What the request writes names who acted (the audit log is derived from it), and its lines name the caller.
    const actor = {
      user_id: principal?.userId ?? null,
      token_id: principal?.apiToken?.id ?? null,
      workspace_id: principal?.workspaceId ?? null,
      ip: sourceIp || null,
      user_agent: header(event, 'user-agent') ?? null,
      request_id: requestId,
    };
    const act = () => runAsActor(actor, handle);
    return principal ? withLogContext({ workspace_id: principal.workspaceId, user_id: principal.userId }, act) : act();
  };

  /**
   * After authorisation, so that 401 and 403 come first; a caller without a user is counted by client IP. An
   * authenticated request is also counted in its workspace's usage (see `HttpGate.limits`).
   */
  const limit = async (event: APIGatewayProxyEventV2, route: Route, principal: Principal | null, sourceIp: string): Promise<void> => {
    if (!options.limits) return;
    const decision = await options.limits({
      userId: principal?.userId ?? null,
      workspaceId: principal?.workspaceId ?? null,
      sourceIp,
      isUpload: route.rateLimit === 'upload',
    });
    if (!decision) return;
    decisions.set(event, decision);
    if (!decision.allowed) throw rateLimited(decision);
  };

  const authorise = async (route: Route, token: string | null): Promise<Principal | null> => {
    if (route.access === 'public') return null;
    if (!token) throw unauthorized('A bearer token is required');
    if (!options.authenticate) throw new Error(`Route ${route.key} needs authentication but none is configured`);
    const principal = await options.authenticate(token);
    if (route.session && principal.apiToken) {
      throw forbidden('This needs a session (log in), not an API token', { reason: 'session_required' });
    }
    // A token's role is already capped by its scopes; the 403 then names them.
    const scopes = principal.apiToken ? { token_scopes: principal.apiToken.scopes } : {};
    if (route.access === 'operator') {
      if (!principal.operator) {
        throw forbidden('This is for the operator of the deployment', { required_role: 'operator', role: principal.role, ...scopes });
      }
      return principal;
    }
    if (!hasRole(principal.role, route.access)) {
      throw forbidden(`This requires the ${route.access} role`, { required_role: route.access, role: principal.role, ...scopes });
    }
    // A token with the read scope alone reads: every GET a viewer may do, none of a viewer's writes.
    if (principal.apiToken?.scopes.every((scope) => scope === 'read') && !route.key.startsWith('GET ')) {
      throw forbidden('This API token may only read (GET)', { reason: 'read_scope', ...scopes });
    }
    return principal;
  };

  const handler = middy<APIGatewayProxyEventV2, HttpResponse, Error, Context>()
    .use(responseHeaders(options.corsOrigins, options.deprecations))
    .use(errorBoundary())
    .handler(dispatch) as unknown as HttpHandler;
  // Every line logged while serving the request carries its id, and so does every SQS message it sends; locally,
  // when the runtime traces, the request is a span of its own (in Lambda, the invocation's span is).
  return (event, context) =>
    withLogContext({ request_id: newRequestId(event, context) }, () => inRequestSpan(event.routeKey, () => handler(event, context)));
}
