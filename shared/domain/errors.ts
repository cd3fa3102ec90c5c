/** Error codes of SPEC profile P, with their HTTP status. */
export const ERROR_STATUS = {
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  VALIDATION_ERROR: 400,
  PAYLOAD_TOO_LARGE: 413,
  DUPLICATE_RESOURCE: 409,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export type ErrorDetails = Record<string, unknown>;

/**
 * A failure the client is meant to see: a P error code, a message safe to show, and details that name what
 * was wrong (a field and a reason, or the id of a missing resource). Anything thrown that is not an AppError
 * is an internal error and is never shown to the client.
 */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}

/** One validation problem: the offending field (dotted path) and why it was refused. */
export interface FieldIssue {
  field: string;
  reason: string;
}

export const validationError = (message: string, issues: FieldIssue[]): AppError => {
  const [first] = issues;
  return new AppError('VALIDATION_ERROR', message, { ...first, issues });
};

export const unauthorized = (message = 'Authentication is required'): AppError =>
  new AppError('UNAUTHORIZED', message);

export const forbidden = (message = 'You do not have permission to do this', details: ErrorDetails = {}): AppError =>
  new AppError('FORBIDDEN', message, details);

/** No endpoint answers this method on this path: the P 404 of an unknown route. */
export const noEndpoint = (method: string, path: string): AppError => new AppError('NOT_FOUND', `No endpoint ${method} ${path}`, { method, path });

export const notFound = (resource: string, id: string): AppError =>
  new AppError('NOT_FOUND', `${resource} not found`, { resource, id });

export const duplicate = (resource: string, field: string): AppError =>
  new AppError('DUPLICATE_RESOURCE', `A ${resource} with this ${field} already exists`, { resource, field });

/**
 * A request that contradicts the resource's state (a queued OCR job, a workspace's last admin): P's one 409 code,
 * with `details.reason` saying which state.
 */
export const conflict = (message: string, details: ErrorDetails): AppError => new AppError('DUPLICATE_RESOURCE', message, details);
