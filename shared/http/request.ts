import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { validationError } from '../domain/errors';

/** A header's value; API Gateway lowercases header names in payload 2.0, the local gateway does too. */
export const header = (event: APIGatewayProxyEventV2, name: string): string | undefined => event.headers?.[name];

/** The token of an `Authorization: Bearer <token>` header, or null when there is none. */
export function bearerToken(event: APIGatewayProxyEventV2): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header(event, 'authorization') ?? '');
  return match?.[1] ?? null;
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;.*)?$/i;

/** The request's JSON body, refused with field details when absent, of another content type or malformed. */
export function jsonBody(event: APIGatewayProxyEventV2): unknown {
  const raw = event.body ? (event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body) : '';
  if (raw.trim() === '') {
    throw validationError('A JSON body is required', [{ field: 'body', reason: 'is missing' }]);
  }
  const contentType = header(event, 'content-type');
  if (!contentType || !JSON_TYPE.test(contentType)) {
    throw validationError('The body must be sent as application/json', [
      { field: 'content-type', reason: `must be application/json, got ${contentType ?? 'none'}` },
    ]);
  }
  try {
    return JSON.parse(raw);
  } catch {
    throw validationError('The body is not valid JSON', [{ field: 'body', reason: 'is not valid JSON' }]);
  }
}
