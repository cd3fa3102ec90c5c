import type { JsonSchema } from './json-schema';

/** The response headers the service sets, as OpenAPI header components (by component name). */
export const HEADER_COMPONENTS: Record<string, { description: string; schema: JsonSchema }> = {
  XRequestId: {
    description: 'The id of this request, also in the error body and in the service logs: quote it when reporting a problem.',
    schema: { type: 'string' },
  },
  XRateLimitLimit: { description: 'Requests allowed in the current window.', schema: { type: 'integer' } },
  XRateLimitRemaining: { description: 'Requests left in the current window.', schema: { type: 'integer' } },
  XRateLimitReset: { description: 'When the window resets, as a Unix timestamp in seconds.', schema: { type: 'integer' } },
  RetryAfter: { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } },
  Deprecation: {
    description: 'On a deprecated operation: its sunset, as an HTTP date (SPEC.md, Versioning).',
    schema: { type: 'string' },
  },
  Sunset: { description: 'On a deprecated operation: from when it may be gone (RFC 8594), an HTTP date.', schema: { type: 'string' } },
  Link: { description: 'On a deprecated operation: its successor, `<path>; rel="successor-version"`.', schema: { type: 'string' } },
};

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** The headers every answer of an operation carries: its request id and, where it is rate limited, its window. */
export function commonHeaders({ rateLimited, deprecated }: { rateLimited: boolean; deprecated: boolean }): Record<string, unknown> {
  return {
    'X-Request-Id': ref('XRequestId'),
    ...(rateLimited
      ? { 'X-RateLimit-Limit': ref('XRateLimitLimit'), 'X-RateLimit-Remaining': ref('XRateLimitRemaining'), 'X-RateLimit-Reset': ref('XRateLimitReset') }
      : {}),
    ...(deprecated ? { Deprecation: ref('Deprecation'), Sunset: ref('Sunset'), Link: ref('Link') } : {}),
  };
}

/** The header a refusal that says when to come back carries (429, a busy 503). */
export const retryAfterHeader = () => ({ 'Retry-After': ref('RetryAfter') });
