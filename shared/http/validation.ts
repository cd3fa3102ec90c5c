import * as z from '../zod';
import { validationError, type AppError, type FieldIssue } from '../domain/errors';
import { unsafeInputIssues } from './input-safety';

/** Zod issues as P validation details: one {field, reason} per problem, unknown keys named one by one. */
export function toFieldIssues(error: z.core.$ZodError, location: string): FieldIssue[] {
  return error.issues.flatMap((issue): FieldIssue[] => {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: path ? `${path}.${key}` : key, reason: 'is not a known field' }));
    }
    return [{ field: path || location, reason: issue.message }];
  });
}

/** The query schema of a route that declares none: any parameter is unknown, as on every other route. */
export const NO_PARAMETERS = z.strictObject({});

/**
 * Parses `value` with `schema`, or throws a VALIDATION_ERROR naming every offending field. Every input goes
 * through here, so reserved names, NUL, unpaired surrogates and deep nesting are refused first, for all
 * routes alike (see unsafeInputIssues).
 */
export function parseWith<S extends z.ZodMiniType>(schema: S, value: unknown, location: 'body' | 'query' | 'path'): z.output<S> {
  const unsafe = unsafeInputIssues(value, location);
  if (unsafe.length) throw validationError(`The request ${location} is not valid`, unsafe);
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const error: AppError = validationError(`The request ${location} is not valid`, toFieldIssues(result.error, location));
  throw error;
}
