import * as z from '../../../shared/zod';
import { shape, timestamp } from './registry';

/** The healthy answer of GET /api/health; an unhealthy service answers 503 instead, so every value here is `ok`. */
export const Health = shape(
  'Health',
  'Every dependency of the service answered.',
  z.strictObject({
    status: z.literal('ok'),
    components: z
      .record(z.string(), z.literal('ok'))
      .check(z.describe('Each dependency probed, by name (`dynamodb`, `s3`, `sqs`; locally also `search` and `ocr`).')),
    version: z.string().check(z.describe("The service's version (package.json).")),
    timestamp: timestamp(),
  }),
);
