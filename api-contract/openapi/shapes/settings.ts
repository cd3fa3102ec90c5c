import * as z from '../../../shared/zod';
import { shape } from './registry';

/** A user's settings with defaults filled in (shared/domain/settings/settings.ts): exactly the P fields. */
export const Settings = shape(
  'Settings',
  "The caller's preferences, every field present (defaults for those never set).",
  z.strictObject({
    theme: z.enum(['dark', 'light']),
    language: z.string().check(z.describe('A language tag, such as `en` or `de-CH`.')),
    notifications_enabled: z.boolean(),
    ocr_default_language: z.string().check(z.describe('Tesseract codes, alone or joined with `+` (`eng+deu`).')),
    items_per_page: z.int().check(z.gte(1), z.lte(100)),
  }),
);
