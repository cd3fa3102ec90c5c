import { AppError } from '../domain/errors';
import { logger } from '../observability/logger';
import { json, type HttpResponse } from './responses';

/**
 * The one place where a failure becomes the P error body. AppErrors are shown as they are; anything else is
 * logged with its stack under the request id and answered with a message that reveals nothing.
 */
export function errorResponse(error: unknown, requestId: string): HttpResponse {
  const known =
    error instanceof AppError ? error : new AppError('INTERNAL_ERROR', 'An unexpected error occurred', {});
  if (!(error instanceof AppError)) logger.error('unhandled error', { request_id: requestId, error });
  const retryAfter = known.details['retry_after_seconds'];
  return json(
    known.status,
    {
      error: {
        code: known.code,
        message: known.message,
        details: known.details,
        timestamp: new Date().toISOString(),
        request_id: requestId,
      },
    },
    // A refusal that says when to come back (429, a busy 503) says it in the header clients act on too.
    typeof retryAfter === 'number' && retryAfter > 0 ? { 'retry-after': String(Math.ceil(retryAfter)) } : {},
  );
}
