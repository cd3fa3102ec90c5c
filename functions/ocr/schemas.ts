import * as z from 'zod';
import { OCR_JOB_STATUSES, OCR_PRIORITIES } from '../../shared/domain/ocr/jobs';
import { ocrLanguageField, pageQuery } from '../../shared/http/fields';

/** Queue items are addressed by their document's id: a document has one OCR job. */
export const jobIdParams = z.strictObject({ id: z.uuid('must be an OCR job id (the document id, a UUID)') });
export const documentIdParams = z.strictObject({ id: z.uuid('must be a document id (UUID)') });

export const retryOcrBody = z.strictObject({
  language: ocrLanguageField.optional(),
  priority: z.enum(OCR_PRIORITIES).default('normal'),
});

export const queueListQuery = pageQuery.extend({
  status: z.enum(OCR_JOB_STATUSES).optional(),
  priority: z.enum(OCR_PRIORITIES).optional(),
});

export const priorityBody = z.strictObject({ priority: z.enum(OCR_PRIORITIES) });
