import { AppError, notFound } from '../errors';
import type { OcrJob, OcrPriority } from './jobs';
import type { OcrJobQueue, OcrJobRepository } from './ports';

/** Moves a queued job to the other priority's queue; the message still on the old queue finds it taken and is skipped. */
export async function setOcrPriority(
  deps: { ocrJobs: OcrJobRepository; ocrQueue: OcrJobQueue },
  documentId: string,
  priority: OcrPriority,
): Promise<OcrJob> {
  const job = await deps.ocrJobs.setPriority(documentId, priority);
  if (!job) throw notFound('OCR job', documentId);
  if (job === 'not_queued') {
    const current = await deps.ocrJobs.get(documentId);
    throw new AppError('DUPLICATE_RESOURCE', 'Only a queued OCR job can change priority: this one has started or finished', {
      resource: 'ocr_job',
      document_id: documentId,
      status: current?.status ?? 'processing',
    });
  }
  await deps.ocrQueue.enqueue({ documentId, run: job.run, priority });
  return job;
}
