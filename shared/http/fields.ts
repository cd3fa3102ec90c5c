import * as z from 'zod';

/** Field rules shared by more than one endpoint group, so that sign-up and profile edits agree. */
export const usernameField = z
  .string()
  .min(3, 'must be at least 3 characters')
  .max(64, 'must be at most 64 characters')
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'may contain letters, digits, dot, dash and underscore, starting with a letter or digit');

export const emailField = z.email('must be a valid email address').max(254);

/** Bounded above because scrypt's cost grows with the input. */
export const passwordField = z
  .string()
  .min(8, 'must be at least 8 characters')
  .max(256, 'must be at most 256 characters');

export const displayNameField = z.string().trim().min(1, 'must not be empty').max(100).nullable();

/** page and per_page of P lists: per_page defaults to 20 and may not exceed 100. */
export const pageQuery = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(100, 'must be at most 100').default(20),
});

/** A Tesseract-style language code, alone or joined with + (eng, deu, chi_sim, eng+deu). */
export const ocrLanguageField = z
  .string()
  .regex(/^[a-z]{3}(?:_[a-z]+)?(?:\+[a-z]{3}(?:_[a-z]+)?)*$/, 'must be an OCR language code such as eng or eng+deu');

/** A boolean in a query string or form field: true/false or 1/0. */
export const booleanField = z
  .enum(['true', 'false', '1', '0'], 'must be true or false')
  .transform((value) => value === 'true' || value === '1');

/** An ISO 8601 date or date-time bound; a bare date as an upper bound (`end`) means the end of that day. */
export const isoDateBound = (end: boolean) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/, 'must be an ISO 8601 date or date-time')
    .refine((value) => !Number.isNaN(Date.parse(value)), 'is not a real date')
    .transform((value) => {
      const date = new Date(value);
      if (end && value.length === 10) date.setUTCHours(23, 59, 59, 999);
      return date.toISOString();
    });

/**
 * A JSON number DynamoDB stores as sent: the SDK's marshaller refuses magnitudes above 2^53 - 1 (it wants a
 * BigInt) and DynamoDB refuses non-zero magnitudes below 1e-130.
 */
export const storableNumber = z
  .number()
  .refine(
    (value) => Math.abs(value) <= Number.MAX_SAFE_INTEGER && (value === 0 || Math.abs(value) >= 1e-130),
    `must be at most ${Number.MAX_SAFE_INTEGER} in magnitude, and 0 or at least 1e-130`,
  );
