import * as z from '../../shared/zod';
import { ocrLanguageField } from '../../shared/http/fields';
import { contract, type RouteContracts } from '../../shared/http/route';

/** Any subset of the P settings fields; at least one, and nothing else. Built on first use (z.lazy). */
export const updateSettingsBody = z.lazy(() =>
  z
    .partial(
      z.strictObject({
        theme: z.enum(['dark', 'light']),
        language: z
          .string()
          .check(z.regex(/^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/, 'must be a language tag such as en or de-CH')),
        notifications_enabled: z.boolean(),
        ocr_default_language: ocrLanguageField(),
        items_per_page: z
          .number()
          .check(z.int('must be an integer'), z.gte(1, 'must be at least 1'), z.lte(100, 'must be at most 100')),
      }),
    )
    .check(z.refine((body) => Object.keys(body).length > 0, { message: 'give at least one settings field' })),
);

/** The settings routes' contracts, by operation id (the API contract's operationId). */
export const routes = {
  getSettings: contract({ key: 'GET /api/settings', access: 'viewer' }),
  updateSettings: contract({ key: 'PUT /api/settings', access: 'viewer', body: updateSettingsBody }),
} as const satisfies RouteContracts;
