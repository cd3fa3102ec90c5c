import {
  API_VERSION_PREFIXES,
  DEPRECATIONS,
  MIN_DEPRECATION_DAYS,
  v1RouteKey,
  type Deprecation,
  type DeprecationTable,
  type RouteKey,
} from '../manifest';

const DAY_MS = 86_400_000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** 00:00 UTC of a `YYYY-MM-DD` day, or NaN when it is not one. */
const startOfDay = (day: string): number => (DAY.test(day) ? Date.parse(`${day}T00:00:00Z`) : Number.NaN);

const isV1 = (routeKey: string): boolean => v1RouteKey(routeKey) === routeKey;

/** The route that replaces a deprecated one: the entry's own, else a v1 route's v2 twin; null for none. */
export function successorOf(routeKey: string, deprecation: Deprecation): string | null {
  if (deprecation.successor) return deprecation.successor;
  if (!isV1(routeKey)) return null;
  return routeKey.replace(` ${API_VERSION_PREFIXES.v1}`, ` ${API_VERSION_PREFIXES.v2}`);
}

/** A route key's path with the request's path parameters put in (`/api/v2/documents/{id}` → `.../abc`). */
function pathOf(routeKey: string, pathParameters: Record<string, string | undefined>): string {
  const path = routeKey.slice(routeKey.indexOf(' ') + 1);
  return path.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = pathParameters[name];
    return value === undefined ? whole : encodeURIComponent(value);
  });
}

/**
 * The headers every answer of a deprecated route carries: `Deprecation` with the sunset as an HTTP date (as
 * SPEC.md's Versioning section has it), `Sunset` (RFC 8594) with the same date, and `Link` to the successor
 * with `rel="successor-version"` (RFC 5829), its path parameters filled from the request. None for a route
 * that is not in the table.
 */
export function deprecationHeaders(
  routeKey: string,
  pathParameters: Record<string, string | undefined> | undefined,
  table: DeprecationTable = DEPRECATIONS,
): Record<string, string> {
  const deprecation = table[routeKey as RouteKey];
  if (!deprecation) return {};
  const sunset = new Date(startOfDay(deprecation.sunset)).toUTCString();
  const headers: Record<string, string> = { deprecation: sunset, sunset };
  const successor = successorOf(routeKey, deprecation);
  if (successor) headers.link = `<${pathOf(successor, pathParameters ?? {})}>; rel="successor-version"`;
  return headers;
}

/**
 * What is wrong with a deprecation table against the served route keys, one sentence each (none when it
 * holds): every entry names a served route, has valid days and at least {@link MIN_DEPRECATION_DAYS} of
 * notice, and its successor is served, not deprecated itself, and needs no path parameter the route lacks.
 */
export function deprecationProblems(table: DeprecationTable, servedRouteKeys: readonly string[]): string[] {
  const problems: string[] = [];
  const parametersOf = (key: string) => new Set([...key.matchAll(/\{(\w+)\}/g)].map((match) => match[1]));
  for (const [routeKey, deprecation] of Object.entries(table) as [string, Deprecation][]) {
    if (!servedRouteKeys.includes(routeKey)) problems.push(`${routeKey} is not a served route`);
    const since = startOfDay(deprecation.since);
    const sunset = startOfDay(deprecation.sunset);
    if (Number.isNaN(since) || Number.isNaN(sunset)) {
      problems.push(`${routeKey}: since and sunset must be YYYY-MM-DD days`);
    } else if (sunset - since < MIN_DEPRECATION_DAYS * DAY_MS) {
      problems.push(`${routeKey}: the sunset must be at least ${MIN_DEPRECATION_DAYS} days after ${deprecation.since}`);
    }
    const successor = successorOf(routeKey, deprecation);
    if (successor === null) continue;
    if (!servedRouteKeys.includes(successor)) problems.push(`${routeKey}: its successor ${successor} is not a served route`);
    else if (successor in table) problems.push(`${routeKey}: its successor ${successor} is deprecated too`);
    const routeParameters = parametersOf(routeKey);
    const missing = [...parametersOf(successor)].filter((name) => !routeParameters.has(name));
    if (missing.length) problems.push(`${routeKey}: its successor ${successor} needs ${missing.join(', ')}`);
  }
  return problems;
}
