import { inWorkspace, type AppContainer, type OcrServices } from '../../shared/container/app-container';
import { ocrMetrics } from '../../shared/domain/ocr/ocr-metrics';
import { cancelOcrJob } from '../../shared/domain/ocr/cancel-ocr-job';
import { setOcrPriority } from '../../shared/domain/ocr/set-ocr-priority';
import { listOcrQueue } from '../../shared/domain/ocr/list-ocr-queue';
import { ocrQueueStatus } from '../../shared/domain/ocr/queue-status';
import { retryOcr } from '../../shared/domain/ocr/retry-ocr';
import { systemMetrics } from '../../shared/domain/system/system-metrics';
import { httpHandler } from '../../shared/http/pipeline';
import { json } from '../../shared/http/responses';
import { route } from '../../shared/http/route';
import { documentIdParams, jobIdParams, priorityBody, queueListQuery, retryOcrBody } from './schemas';

/** OCR queue control and the metrics: retry a document, the queue's status and items, priority, cancel, OCR and system metrics. */
export const createOcrHandler = (c: AppContainer & OcrServices) =>
  httpHandler({
    corsOrigins: c.corsOrigins,
    edge: c.edge,
    authenticate: c.authenticate,
    limits: c.limits,
    routes: [
      route({
        key: 'POST /api/documents/{id}/retry-ocr',
        access: 'editor',
        params: documentIdParams,
        body: retryOcrBody,
        handle: async ({ params, body, principal }) =>
          json(200, await retryOcr(inWorkspace(c, principal), params.id, { language: body.language, priority: body.priority, by: principal.userId })),
      }),
      route({
        key: 'GET /api/ocr/queue/status',
        access: 'viewer',
        handle: async ({ principal }) => json(200, await ocrQueueStatus(inWorkspace(c, principal))),
      }),
      route({
        key: 'GET /api/ocr/queue',
        access: 'viewer',
        query: queueListQuery,
        handle: async ({ query, principal }) =>
          json(200, await listOcrQueue(inWorkspace(c, principal), { page: query.page, perPage: query.per_page, status: query.status, priority: query.priority })),
      }),
      route({
        key: 'PUT /api/ocr/queue/{id}/priority',
        access: 'editor',
        params: jobIdParams,
        body: priorityBody,
        handle: async ({ params, body, principal }) => json(200, await setOcrPriority(inWorkspace(c, principal), params.id, body.priority)),
      }),
      route({
        key: 'DELETE /api/ocr/queue/{id}',
        access: 'editor',
        params: jobIdParams,
        handle: async ({ params, principal }) => json(200, await cancelOcrJob(inWorkspace(c, principal), params.id)),
      }),
      route({
        key: 'GET /api/metrics/ocr',
        access: 'viewer',
        handle: async ({ principal }) => json(200, await ocrMetrics(inWorkspace(c, principal))),
      }),
      route({
        key: 'GET /api/metrics/system',
        // The machine's figures are the operator's business, not a workspace admin's.
        access: 'operator',
        handle: async () => json(200, await systemMetrics(c)),
      }),
    ],
  });
