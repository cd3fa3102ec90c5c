import type { HttpResponse } from './responses';

/** Allowed origins: `*` for any, or an explicit list (configuration CORS_ORIGINS, comma-separated). */
export type CorsOrigins = '*' | string[];

export const parseCorsOrigins = (value: string): CorsOrigins =>
  value.trim() === '*' ? '*' : value.split(',').map((origin) => origin.trim()).filter(Boolean);

const ALLOWED_METHODS = 'GET,POST,PUT,DELETE,OPTIONS';
const ALLOWED_HEADERS = 'authorization,content-type,x-request-id';
const EXPOSED_HEADERS = 'x-request-id,x-ratelimit-limit,x-ratelimit-remaining,x-ratelimit-reset,retry-after,deprecation,sunset,link';

/** CORS response headers for a request from `origin`; none when the origin is not allowed. */
export function corsHeaders(origins: CorsOrigins, origin: string | undefined): Record<string, string> {
  if (origins === '*') return { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED_HEADERS };
  if (!origin || !origins.includes(origin)) return {};
  return { 'access-control-allow-origin': origin, 'access-control-expose-headers': EXPOSED_HEADERS, vary: 'origin' };
}

/** The answer to a preflight request. Bearer tokens travel in a header, so credentials are never allowed. */
export function preflightResponse(origins: CorsOrigins, origin: string | undefined): HttpResponse {
  const headers = corsHeaders(origins, origin);
  if (!headers['access-control-allow-origin']) return { statusCode: 204, headers: {} };
  return {
    statusCode: 204,
    headers: {
      ...headers,
      'access-control-allow-methods': ALLOWED_METHODS,
      'access-control-allow-headers': ALLOWED_HEADERS,
      'access-control-max-age': '600',
    },
  };
}
