/**
 * The one way to import zod here (`import * as z from '<path>/shared/zod'`): its functional build, `zod/mini`,
 * about a third of classic zod in a bundle, which every Lambda carries. `zod/mini` leaves messages out unless
 * configured; the P validation details quote them, so this module gives it the English ones.
 * Re-exported with `export *` so that a bundler still keeps only the parts a function uses.
 */
import { config, type ZodMiniLazy, type ZodMiniObject } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

config(en());

export * from 'zod/mini';

/**
 * The field names of an object schema built on first use (`lazy(() => strictObject(...))`, as route schemas are
 * so that a cold start builds only the schemas of the route it serves). Reading them builds the schema.
 */
export const fieldNames = (schema: ZodMiniLazy<ZodMiniObject>): string[] => Object.keys(schema._zod.innerType.shape);
