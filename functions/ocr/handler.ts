import type { HttpGate, RequestGate } from '../../shared/container/kit/request-gate';
import { inWorkspace, type WorkspaceScoped } from '../../shared/container/kit/workspace-scope';
import type { ConnectionRepository } from '../../shared/domain/connections/ports';
import type { OcrEngine, OcrJobQueue, OcrJobRepository } from '../../shared/domain/ocr/ports';
import type { HostProbe } from '../../shared/domain/system/ports';
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
import { routes } from './schemas';

/** What the ocr endpoints use. */
export type OcrDeps = HttpGate &
  Pick<RequestGate, 'clock' | 'settings'> & {
    connections: ConnectionRepository;
    /** The answering instance, for the system metrics. */
    host: HostProbe;
    ocrLanguages: OcrEngine['languages'];
    /** OCR jobs that run side by side, for the queue's completion estimate. */
    ocrWorkers: number;
  } & WorkspaceScoped<{ workspaceId: string; ocrJobs: OcrJobRepository; ocrQueue: OcrJobQueue }>;

/** OCR queue control and the metrics: retry a document, the queue's status and items, priority, cancel, OCR and system metrics. */
export const createOcrHandler = (c: OcrDeps) =>
  httpHandler({
    corsOrigins: c.corsOrigins,
    edge: c.edge,
    authenticate: c.authenticate,
    limits: c.limits,
    routes: [
      route({
        ...routes.retryOcr,
        handle: async ({ params, body, principal }) =>
          json(200, await retryOcr(inWorkspace(c, principal), params.id, { language: body.language, priority: body.priority, by: principal.userId })),
      }),
      route({
        ...routes.getOcrQueueStatus,
        handle: async ({ principal }) => json(200, await ocrQueueStatus(inWorkspace(c, principal))),
      }),
      route({
        ...routes.listOcrQueue,
        handle: async ({ query, principal }) =>
          json(200, await listOcrQueue(inWorkspace(c, principal), { page: query.page, perPage: query.per_page, status: query.status, priority: query.priority })),
      }),
      route({
        ...routes.setOcrPriority,
        handle: async ({ params, body, principal }) => json(200, await setOcrPriority(inWorkspace(c, principal), params.id, body.priority)),
      }),
      route({
        ...routes.cancelOcrJob,
        handle: async ({ params, principal }) => json(200, await cancelOcrJob(inWorkspace(c, principal), params.id)),
      }),
      route({
        ...routes.getOcrMetrics,
        handle: async ({ principal }) => json(200, await ocrMetrics(inWorkspace(c, principal))),
      }),
      route({
        ...routes.getSystemMetrics,
        handle: async () => json(200, await systemMetrics(c)),
      }),
    ],
  });
