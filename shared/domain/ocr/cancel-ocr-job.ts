import type { Clock } from '../clock';
import { AppError, notFound } from '../errors';
import type { OcrJobRepository } from './ports';

/**
 * Cancels a job that has not finished: a queued one at once (its document ends failed with reason
 * `cancelled`), a processing one at its next page (the worker stops there). A finished job is 409.
 */
export async function cancelOcrJob(
  deps: { ocrJobs: OcrJobRepository; clock: Clock },
  documentId: string,
): Promise<{ id: string; status: 'cancelled' | 'cancelling' }> {
  const outcome = await deps.ocrJobs.cancel(documentId, deps.clock.now().toISOString());
  if (outcome === 'not_found') throw notFound('OCR job', documentId);
  if (outcome === 'finished') {
    const job = await deps.ocrJobs.get(documentId);
    throw new AppError('DUPLICATE_RESOURCE', 'This OCR job has already finished', {
      resource: 'ocr_job',
      document_id: documentId,
      status: job?.status ?? 'finished',
    });
  }
  return { id: documentId, status: outcome === 'cancelled' ? 'cancelled' : 'cancelling' };
}
