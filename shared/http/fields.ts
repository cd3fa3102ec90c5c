import { displayTextProblem } from '../domain/display-text';
import * as z from '../zod';

/*
 * Field rules shared by more than one endpoint group, so that sign-up and profile edits agree. Each is a function
 * that builds the field, called from a route's lazy schema: a cold start builds only the fields its first route uses.
 */

export const usernameField = () =>
  z.string().check(
    z.minLength(3, 'must be at least 3 characters'),
    z.maxLength(64, 'must be at most 64 characters'),
    z.regex(
      /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
      'may contain letters, digits, dot, dash and underscore, starting with a letter or digit',
    ),
  );

export const emailField = () => z.email('must be a valid email address').check(z.maxLength(254));

/** Bounded above because hashing it costs more the longer it is. */
export const passwordField = () =>
  z.string().check(z.minLength(8, 'must be at least 8 characters'), z.maxLength(256, 'must be at most 256 characters'));

/**
 * A name people read (a label's, a source's, a user's display name): trimmed, not empty, and refused when it
 * holds controls or bidirectional formatting, which would make it read as something else.
 */
export const visibleNameField = (maxLength = 100) =>
  z.string().check(
    z.trim(),
    z.minLength(1, 'must not be empty'),
    z.maxLength(maxLength),
    z.refine((value) => displayTextProblem(value) === null, 'must not contain control or bidirectional formatting characters'),
  );

export const displayNameField = () => z.nullable(visibleNameField());

/** page and per_page of P lists: per_page defaults to 20 and may not exceed 100. */
export const pageFields = () => ({
  page: z._default(z.coerce.number().check(z.int(), z.gte(1)), 1),
  per_page: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100, 'must be at most 100')), 20),
});

/** The query of a P list that takes nothing but its page. */
export const pageQuery = z.lazy(() => z.strictObject(pageFields()));

/** A Tesseract-style language code, alone or joined with + (eng, deu, chi_sim, eng+deu). */
export const ocrLanguageField = () =>
  z.string().check(
    z.regex(/^[a-z]{3}(?:_[a-z]+)?(?:\+[a-z]{3}(?:_[a-z]+)?)*$/, 'must be an OCR language code such as eng or eng+deu'),
  );

/** A boolean in a query string or form field: true/false or 1/0. */
export const booleanField = () =>
  z.pipe(
    z.enum(['true', 'false', '1', '0'], 'must be true or false'),
    z.transform((value) => value === 'true' || value === '1'),
  );

/** An ISO 8601 date or date-time bound; a bare date as an upper bound (`end`) means the end of that day. */
export const isoDateBound = (end: boolean) =>
  z.pipe(
    z.string().check(
      z.regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/, 'must be an ISO 8601 date or date-time'),
      z.refine((value) => !Number.isNaN(Date.parse(value)), 'is not a real date'),
    ),
    z.transform((value) => {
      const date = new Date(value);
      if (end && value.length === 10) date.setUTCHours(23, 59, 59, 999);
      return date.toISOString();
    }),
  );

/**
 * A JSON number DynamoDB stores as sent: the SDK's marshaller refuses magnitudes above 2^53 - 1 (it wants a
 * BigInt) and DynamoDB refuses non-zero magnitudes below 1e-130.
 */
export const storableNumber = () =>
  z.number().check(
    z.refine(
      (value) => Math.abs(value) <= Number.MAX_SAFE_INTEGER && (value === 0 || Math.abs(value) >= 1e-130),
      `must be at most ${Number.MAX_SAFE_INTEGER} in magnitude, and 0 or at least 1e-130`,
    ),
  );
