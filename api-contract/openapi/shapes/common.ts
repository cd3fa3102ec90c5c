import * as z from '../../../shared/zod';
import { ERROR_STATUS, type ErrorCode } from '../../../shared/domain/errors';
import { shape, timestamp } from './registry';

/** The P pagination block of every `{data, pagination}` list. */
export const Pagination = shape(
  'Pagination',
  'Where a page sits in the whole list.',
  z.strictObject({
    page: z.int().check(z.gte(1)),
    per_page: z.int().check(z.gte(1), z.lte(100)),
    total: z.int().check(z.gte(0)),
    total_pages: z.int().check(z.gte(0)),
    has_next: z.boolean(),
    has_prev: z.boolean(),
  }),
);

/** A page of items in the P list envelope. */
export const pageOf = <S extends z.ZodMiniType>(item: S) => z.strictObject({ data: z.array(item), pagination: Pagination });

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** The P error body, shared by every error answer. */
export const ErrorBody = shape(
  'Error',
  'The body of every error answer: a P error code, a message safe to show, details that name what was wrong.',
  z.strictObject({
    error: z.strictObject({
      code: z.enum(ERROR_CODES),
      message: z.string(),
      details: z.record(z.string(), z.unknown()),
      timestamp: timestamp(),
      request_id: z.string(),
    }),
  }),
);

/** A body that only says what happened. */
export const Message = shape('Message', 'A confirmation in words.', z.strictObject({ message: z.string() }));
