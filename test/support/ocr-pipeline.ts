import { ensureBucket, ensureQueueWithDlq } from '../../shared/adapters/aws/provisioning';
import { S3FileStore } from '../../shared/adapters/aws/s3/file-store';
import { SqsOcrJobQueue } from '../../shared/adapters/aws/sqs/ocr-job-queue';
import { startQueuePoller } from '../../shared/local/event-sources/sqs-poller';
import { PdfTextLayerReader } from '../../shared/adapters/imaging/pdf-text-layer-reader';
import { TesseractOcrEngine } from '../../shared/adapters/local/tesseract-ocr-engine';
import { createOcrWorkerHandler } from '../../functions/ocr-worker/handler';
import { inWorkspace } from '../../shared/container/app-container';
import { buildAppContainer } from '../../shared/container/build-app-container';
import { commonEnvSchema, parseEnv } from '../../shared/container/config';
import type { DocumentRecord } from '../../shared/domain/documents/document';
import { fileKeys } from '../../shared/domain/files/file-keys';
import type { BusinessMetric, BusinessMetrics } from '../../shared/domain/metrics/ports';
import { newOcrJob } from '../../shared/domain/ocr/jobs';
import type { OcrEngine } from '../../shared/domain/ocr/ports';
import type { OcrWorkerServices } from '../../shared/domain/ocr/process-ocr-job';
import { freshTable, testClients, uniqueName } from './aws-resources';
import { aDocumentRecord } from './builders';
import { absentParts } from './absent-parts';

/** Business metrics kept in memory, to see what a use case counted. */
export class RecordedMetrics implements BusinessMetrics {
  readonly counts = new Map<BusinessMetric, number>();
  count(metric: BusinessMetric, value = 1): void {
    this.counts.set(metric, (this.counts.get(metric) ?? 0) + value);
  }
}

/**
 * The OCR worker's real adapters on fresh resources (DynamoDB Local, the S3 and SQS emulators, pdf.js text
 * layers; a searchable PDF writer when given), one workspace, and the uploader's side of a job.
 */
export async function ocrPipeline(
  engine: OcrEngine = new TesseractOcrEngine(),
  options: { metrics?: BusinessMetrics; searchablePdf?: OcrWorkerServices['searchablePdf'] } = {},
) {
  const { sqs, s3 } = testClients();
  const { db, tableName } = await freshTable();
  const bucket = uniqueName('ocr');
  await ensureBucket(s3, bucket);
  const normal = await ensureQueueWithDlq(sqs, uniqueName('ocr'), { visibilityTimeoutSeconds: 30 });
  const high = await ensureQueueWithDlq(sqs, uniqueName('ocr-high'), { visibilityTimeoutSeconds: 30 });
  const container = buildAppContainer({
    ...absentParts(),
    db,
    tableName,
    env: parseEnv(commonEnvSchema, {}),
    healthProbes: [],
    files: new S3FileStore(s3, bucket),
    ocrQueues: new SqsOcrJobQueue(sqs, { normal: normal.queueUrl, high: high.queueUrl }),
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });
  const workspaceId = crypto.randomUUID();
  await container.workspaces.create({ id: workspaceId, name: 'OCR', created_at: new Date().toISOString() });
  const worker = { ...container, engine, textLayer: new PdfTextLayerReader(), staleAfterSeconds: 300, searchablePdf: options.searchablePdf };
  const deps = inWorkspace(worker, { workspaceId });
  const { documents, files, ocrQueue: queue } = deps;
  /** Stores `bytes` as a new document with a queued job; `record` overrides fields of its record (e.g. `size`). */
  const upload = async (bytes: Uint8Array, mimeType = 'application/pdf', record: Partial<DocumentRecord> = {}): Promise<DocumentRecord> => {
    const document = aDocumentRecord({ mime_type: mimeType, size: bytes.length, ...record });
    await files.put(fileKeys.original(document.id), bytes, mimeType);
    await documents.create(document, newOcrJob(document, 'normal', document.created_at));
    return document;
  };
  const poll = (queueUrl = normal.queueUrl) =>
    startQueuePoller({ sqs, queueUrl, handler: createOcrWorkerHandler(worker), waitTimeSeconds: 1, retryDelaySeconds: () => 0 });
  return { sqs, container, worker, deps, documents, files, queue, normal, high, upload, poll };
}
