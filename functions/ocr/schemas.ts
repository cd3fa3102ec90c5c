import * as z from '../../shared/zod';
import { OCR_JOB_STATUSES, OCR_PRIORITIES } from '../../shared/domain/ocr/jobs';
import { ocrLanguageField, pageFields } from '../../shared/http/fields';
import { contract, type RouteContracts } from '../../shared/http/route';

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

/** The OCR queue and metrics routes' contracts, by operation id (the API contract's operationId). */
export const routes = {
  retryOcr: contract({ key: 'POST /api/documents/{id}/retry-ocr', access: 'editor', params: documentIdParams, body: retryOcrBody }),
  getOcrQueueStatus: contract({ key: 'GET /api/ocr/queue/status', access: 'viewer' }),
  listOcrQueue: contract({ key: 'GET /api/ocr/queue', access: 'viewer', query: queueListQuery }),
  setOcrPriority: contract({ key: 'PUT /api/ocr/queue/{id}/priority', access: 'editor', params: jobIdParams, body: priorityBody }),
  cancelOcrJob: contract({ key: 'DELETE /api/ocr/queue/{id}', access: 'editor', params: jobIdParams }),
  getOcrMetrics: contract({ key: 'GET /api/metrics/ocr', access: 'viewer' }),
  // The machine's figures are the operator's business, not a workspace admin's.
  getSystemMetrics: contract({ key: 'GET /api/metrics/system', access: 'operator' }),
} as const satisfies RouteContracts;
