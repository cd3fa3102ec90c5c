import * as z from 'zod';
import { MAX_FILE_PATTERNS, patternProblem } from '../../shared/domain/sources/file-patterns';
import { MAX_SYNC_INTERVAL_SECONDS, MIN_SYNC_INTERVAL_SECONDS, SOURCE_TYPES } from '../../shared/domain/sources/source';

export const sourceIdParams = z.strictObject({ id: z.uuid('must be a source id (UUID)') });

const name = z.string().trim().min(1, 'must not be empty').max(100);
const url = z
  .url({ protocol: /^https?$/, error: 'must be an http or https URL' })
  .max(2048)
  .refine((value) => !new URL(value).username && !new URL(value).password, 'must not carry credentials: give username and password');
const username = z.string().max(256);
const password = z.string().max(1024);
const syncInterval = z
  .number()
  .int('must be a whole number of seconds')
  .min(MIN_SYNC_INTERVAL_SECONDS, `must be at least ${MIN_SYNC_INTERVAL_SECONDS} seconds`)
  .max(MAX_SYNC_INTERVAL_SECONDS, `must be at most ${MAX_SYNC_INTERVAL_SECONDS} seconds (a week)`);
const filePatterns = z
  .array(
    z.string().superRefine((pattern, ctx) => {
      const problem = patternProblem(pattern);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  )
  .max(MAX_FILE_PATTERNS);

export const createSourceBody = z.strictObject({
  name,
  type: z.enum(SOURCE_TYPES),
  url,
  username,
  password,
  sync_interval: syncInterval.default(3600),
  recursive: z.boolean().default(true),
  file_patterns: filePatterns.default([]),
  enabled: z.boolean().default(true),
});

export const updateSourceBody = z
  .strictObject({ name, type: z.enum(SOURCE_TYPES), url, username, password, sync_interval: syncInterval, recursive: z.boolean(), file_patterns: filePatterns, enabled: z.boolean() })
  .partial()
  .refine((body) => Object.keys(body).length > 0, { message: 'give at least one field to change' });
