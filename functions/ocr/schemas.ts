import * as z from '../../shared/zod';
import { OCR_JOB_STATUSES, OCR_PRIORITIES } from '../../shared/domain/ocr/jobs';
import { ocrLanguageField, pageFields } from '../../shared/http/fields';

// Each route's schema is built when the route is first used (z.lazy): a cold start builds only its route's.

/** Queue items are addressed by their document's id: a document has one OCR job. */
export const jobIdParams = z.lazy(() =>
  z.strictObject({ id: z.uuid('must be an OCR job id (the document id, a UUID)') }),
);
export const documentIdParams = z.lazy(() => z.strictObject({ id: z.uuid('must be a document id (UUID)') }));

export const retryOcrBody = z.lazy(() =>
  z.strictObject({
    language: z.optional(ocrLanguageField()),
    priority: z._default(z.enum(OCR_PRIORITIES), 'normal'),
  }),
);

export const queueListQuery = z.lazy(() =>
  z.strictObject({
    ...pageFields(),
    status: z.optional(z.enum(OCR_JOB_STATUSES)),
    priority: z.optional(z.enum(OCR_PRIORITIES)),
  }),
);

export const priorityBody = z.lazy(() => z.strictObject({ priority: z.enum(OCR_PRIORITIES) }));
