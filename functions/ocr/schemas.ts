import * as z from '../../shared/zod';
import { OCR_JOB_STATUSES, OCR_PRIORITIES } from '../../shared/domain/ocr/jobs';
import { ocrLanguageField, pageQuery } from '../../shared/http/fields';

/** Queue items are addressed by their document's id: a document has one OCR job. */
export const jobIdParams = z.strictObject({ id: z.uuid('must be an OCR job id (the document id, a UUID)') });
export const documentIdParams = z.strictObject({ id: z.uuid('must be a document id (UUID)') });

export const retryOcrBody = z.strictObject({
  language: z.optional(ocrLanguageField),
  priority: z._default(z.enum(OCR_PRIORITIES), 'normal'),
});

export const queueListQuery = z.extend(pageQuery, {
  status: z.optional(z.enum(OCR_JOB_STATUSES)),
  priority: z.optional(z.enum(OCR_PRIORITIES)),
});

export const priorityBody = z.strictObject({ priority: z.enum(OCR_PRIORITIES) });
