import type { Clock } from '../clock';
import { AppError, notFound } from '../errors';
import type { OcrPriority } from './jobs';
import type { OcrJobQueue, OcrJobRepository, OcrEngine } from './ports';
import type { SettingsRepository } from '../settings/ports';
import { requireOcrLanguage, ocrLanguageFor } from './ocr-language';

const busy = (job: { document_id: string; status: string }) =>
  new AppError('DUPLICATE_RESOURCE', 'An OCR job for this document is already queued or processing', {
    resource: 'ocr_job',
    document_id: job.document_id,
    status: job.status,
  });

export interface RetryDeps {
  ocrJobs: OcrJobRepository;
  ocrQueue: OcrJobQueue;
  ocrLanguages: OcrEngine['languages'];
  settings: SettingsRepository;
  clock: Clock;
}

/**
 * Starts a new OCR run of a document (after a failure, a cancel, or to read it again in other languages).
 * 409 while a run is queued or processing.
 */
export async function retryOcr(
  deps: RetryDeps,
  documentId: string,
  request: { language?: string | undefined; priority: OcrPriority; by: string },
): Promise<{ id: string; status: 'pending'; priority: OcrPriority; language: string; message: string }> {
  const language = await ocrLanguageFor(deps, request.by, request.language);
  await requireOcrLanguage(deps, language);
  const job = await deps.ocrJobs.restart(documentId, { ...request, language, now: deps.clock.now().toISOString() });
  if (!job) throw notFound('Document', documentId);
  if (job === 'busy') throw busy((await deps.ocrJobs.get(documentId)) ?? { document_id: documentId, status: 'queued' });
  // A lost send leaves the job queued in the table; the stuck-job sweep sends it again.
  await deps.ocrQueue.enqueue({ documentId, run: job.run, priority: job.priority }).catch(() => undefined);
  return { id: documentId, status: 'pending', priority: job.priority, language: job.language, message: 'OCR queued' };
}
