import { ERROR_STATUS, type ErrorCode } from '../../shared/domain/errors';
import type { RouteContract } from '../../shared/http/route';
import type { ErrorResponseDoc } from './operation-docs';

/**
 * The errors every operation of a kind can give, with when: validation for anything that takes input (a route
 * without query parameters refuses any), authentication and role for protected routes, not found for routes
 * on an id, the body limit for routes with a body, the rate limit where counted, and the server's own.
 */
export function commonErrors(contract: RouteContract, { rateLimited }: { rateLimited: boolean }): ErrorResponseDoc[] {
  const errors: ErrorResponseDoc[] = [
    { code: 'VALIDATION_ERROR', when: 'a parameter or field is missing, unknown or invalid; `details` names the field and the reason' },
  ];
  if (contract.access !== 'public') errors.push({ code: 'UNAUTHORIZED', when: 'the bearer token is missing, invalid, expired or revoked' });
  if (contract.access === 'editor' || contract.access === 'admin' || contract.access === 'operator') {
    errors.push({
      code: 'FORBIDDEN',
      when: `the caller is not ${contract.access === 'operator' ? 'the operator of the deployment' : `at least ${contract.access}`}, or the caller's API token has no scope that allows it (\`details.token_scopes\`)`,
    });
  }
  if (contract.access === 'viewer' && !contract.key.startsWith('GET ')) {
    errors.push({ code: 'FORBIDDEN', when: 'called with a personal API token that has only the `read` scope, which allows GET alone (`details.reason = "read_scope"`)' });
  }
  if (contract.session) {
    errors.push({ code: 'FORBIDDEN', when: 'called with a personal API token: this needs a session (`details.reason = "session_required"`)' });
  }
  // The operator is never refused so: they resume workspaces.
  if (contract.access !== 'public' && contract.access !== 'operator') {
    errors.push({ code: 'FORBIDDEN', when: "the caller's workspace is suspended by the operator (`details.reason = \"workspace_suspended\"`)" });
  }
  if (contract.params) errors.push({ code: 'NOT_FOUND', when: 'no such resource in the caller\'s workspace; `details.id` names it' });
  if (contract.body || contract.form) errors.push({ code: 'PAYLOAD_TOO_LARGE', when: 'the request body is larger than the service accepts' });
  if (rateLimited) errors.push({ code: 'RATE_LIMITED', when: 'the caller (or, without a token, the client address) is over its rate limit' });
  errors.push({ code: 'INTERNAL_ERROR', when: 'the service failed; the message reveals nothing, the request id finds the log' });
  errors.push({ code: 'SERVICE_UNAVAILABLE', when: 'a store the operation needs is unavailable or overloaded; try again after `Retry-After` when given' });
  return errors;
}

/** An operation's error answers by status: each status's code(s) and when each happens. */
export function errorsByStatus(errors: readonly ErrorResponseDoc[]): Map<number, ErrorResponseDoc[]> {
  const byStatus = new Map<number, ErrorResponseDoc[]>();
  for (const error of errors) {
    const status = ERROR_STATUS[error.code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), error]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

export const codesOf = (errors: readonly ErrorResponseDoc[]): ErrorCode[] => [...new Set(errors.map((error) => error.code))];
