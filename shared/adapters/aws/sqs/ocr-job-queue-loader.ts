import type { OcrPriority } from '../../../domain/ocr/jobs';
import type { OcrJobQueues } from '../../../domain/ocr/ports';
import type { ClientOptions } from '../clients';
import { createSqsClient } from './client';
import { SqsOcrJobQueue } from './ocr-job-queue';

/** What {@link lazySqsOcrJobQueues} imports on first use, and nothing imports statically (see s3/file-store-loader.ts). */
export const loadSqsOcrJobQueues = (queueUrls: Record<OcrPriority, string>, clientOptions: ClientOptions): OcrJobQueues =>
  new SqsOcrJobQueue(createSqsClient(clientOptions), queueUrls);
