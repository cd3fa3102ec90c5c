import * as z from '../../shared/zod';
import { visibleNameField } from '../../shared/http/fields';
import { contract, type RouteContracts } from '../../shared/http/route';
import { MAX_FILE_PATTERNS, patternProblem } from '../../shared/domain/sources/file-patterns';
import { MAX_SYNC_INTERVAL_SECONDS, MIN_SYNC_INTERVAL_SECONDS, SOURCE_TYPES } from '../../shared/domain/sources/source';

// Each route's schema is built when the route is first used (z.lazy): a cold start builds only its route's.

export const sourceIdParams = z.lazy(() => z.strictObject({ id: z.uuid('must be a source id (UUID)') }));

const url = () =>
  z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).check(
    z.maxLength(2048),
    z.refine(
      // z.url's own check does not stop this one: a value that is no URL is refused there, not thrown on here.
      (value) => !URL.canParse(value) || (!new URL(value).username && !new URL(value).password),
      'must not carry credentials: give username and password',
    ),
  );
const username = () => z.string().check(z.maxLength(256));
const password = () => z.string().check(z.maxLength(1024));
const syncInterval = () =>
  z
    .number()
    .check(
      z.int('must be a whole number of seconds'),
      z.gte(MIN_SYNC_INTERVAL_SECONDS, `must be at least ${MIN_SYNC_INTERVAL_SECONDS} seconds`),
      z.lte(MAX_SYNC_INTERVAL_SECONDS, `must be at most ${MAX_SYNC_INTERVAL_SECONDS} seconds (a week)`),
    );
const filePatterns = () =>
  z
    .array(
      z.string().check(
        z.superRefine((pattern, ctx) => {
          const problem = patternProblem(pattern);
          if (problem) ctx.addIssue({ code: 'custom', message: problem });
        }),
      ),
    )
    .check(z.maxLength(MAX_FILE_PATTERNS));

/** What names and reaches a source: required to create one, each optional in a change. */
const connectionFields = () => ({
  name: visibleNameField(),
  type: z.enum(SOURCE_TYPES),
  url: url(),
  username: username(),
  password: password(),
});

export const createSourceBody = z.lazy(() =>
  z.strictObject({
    ...connectionFields(),
    sync_interval: z._default(syncInterval(), 3600),
    recursive: z._default(z.boolean(), true),
    file_patterns: z._default(filePatterns(), []),
    enabled: z._default(z.boolean(), true),
  }),
);

export const updateSourceBody = z.lazy(() =>
  z
    .partial(
      z.strictObject({
        ...connectionFields(),
        sync_interval: syncInterval(),
        recursive: z.boolean(),
        file_patterns: filePatterns(),
        enabled: z.boolean(),
      }),
    )
    .check(z.refine((body) => Object.keys(body).length > 0, { message: 'give at least one field to change' })),
);

/** The source routes' contracts, by operation id (the API contract's operationId). */
export const routes = {
  listSources: contract({ key: 'GET /api/sources', access: 'viewer' }),
  createSource: contract({ key: 'POST /api/sources', access: 'editor', body: createSourceBody }),
  updateSource: contract({ key: 'PUT /api/sources/{id}', access: 'editor', params: sourceIdParams, body: updateSourceBody }),
  deleteSource: contract({ key: 'DELETE /api/sources/{id}', access: 'editor', params: sourceIdParams }),
  syncSource: contract({ key: 'POST /api/sources/{id}/sync', access: 'editor', params: sourceIdParams }),
  getSyncStatus: contract({ key: 'GET /api/sources/{id}/sync-status', access: 'viewer', params: sourceIdParams }),
} as const satisfies RouteContracts;
