import type { HttpHandler } from '../http/pipeline';
import { PUBLIC_ROUTE_KEYS, v1RouteKey } from '../manifest';

/** One API Gateway route and the handler behind it. */
export interface RouteBinding {
  routeKey: string;
  handler: HttpHandler;
  /** Whether the handler needs a valid bearer token; by default unless {@link PUBLIC_ROUTE_KEYS} lists the route. */
  authenticated?: boolean;
}

export interface RouteMatch extends RouteBinding {
  pathParameters: Record<string, string>;
  authenticated: boolean;
}

interface CompiledRoute extends RouteBinding {
  authenticated: boolean;
  method: string;
  pattern: RegExp;
  parameterNames: string[];
  literalSegments: number;
}

/**
 * Matches requests to route keys the way API Gateway HTTP APIs do: exact method, `{name}` path segments as
 * parameters, and literal segments winning over parameters (`/users/profile` before `/users/{id}`).
 */
export class RouteTable {
  private readonly routes: CompiledRoute[];

  constructor(bindings: RouteBinding[]) {
    this.routes = bindings
      .map((binding) => compile(binding))
      .sort((a, b) => b.literalSegments - a.literalSegments);
  }

  match(method: string, path: string): RouteMatch | null {
    for (const route of this.routes) {
      if (route.method !== method) continue;
      const found = route.pattern.exec(path);
      if (!found) continue;
      const pathParameters = Object.fromEntries(
        route.parameterNames.map((name, index) => [name, decodeSegment(found[index + 1] ?? '')]),
      );
      return { routeKey: route.routeKey, handler: route.handler, authenticated: route.authenticated, pathParameters };
    }
    return null;
  }
}

/**
 * A path parameter as the handler sees it, percent-decoded. A segment with a bad escape (`%zz`, a lone `%E2`)
 * is passed on as it came: the route's schema refuses it like any other malformed id, after authentication,
 * so a caller without a token learns no more from `/api/documents/%zz` than from `/api/documents/x`.
 */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function compile(binding: RouteBinding): CompiledRoute {
  const [method, path] = binding.routeKey.split(' ') as [string, string];
  const parameterNames: string[] = [];
  let literalSegments = 0;
  const source = path
    .split('/')
    .map((segment) => {
      const parameter = /^\{(\w+)\}$/.exec(segment);
      if (parameter) {
        parameterNames.push(parameter[1]!);
        return '([^/]+)';
      }
      if (segment) literalSegments++;
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  const authenticated = binding.authenticated ?? !PUBLIC_ROUTE_KEYS.has(v1RouteKey(binding.routeKey));
  return { ...binding, authenticated, method, pattern: new RegExp(`^${source}$`), parameterNames, literalSegments };
}
