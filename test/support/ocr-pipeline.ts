import { ensureBucket, ensureQueueWithDlq } from '../../shared/adapters/aws/provisioning';
import { S3FileStore } from '../../shared/adapters/aws/s3/file-store';
import { SqsOcrJobQueue } from '../../shared/adapters/aws/sqs/ocr-job-queue';
import { startQueuePoller } from '../../shared/local/event-sources/sqs-poller';
import { PdfTextLayerReader } from '../../shared/adapters/imaging/pdf-text-layer-reader';
import { TesseractOcrEngine } from '../../shared/adapters/local/tesseract-ocr-engine';
import { createOcrWorkerHandler, type OcrWorkerHandlerDeps } from '../../functions/ocr-worker/handler';
import { DynamoNotificationRepository } from '../../shared/adapters/aws/dynamodb/notification-repository';
import { lazyRe2RegexEngine } from '../../shared/adapters/re2/lazy-re2-regex-engine';
import { ruleLog } from '../../shared/container/kit/workspace-stores';
import { inWorkspace } from '../../shared/container/kit/workspace-scope';
import { workspaceFileStore } from '../../shared/domain/documents/bucket-layout';
import type { DocumentRecord } from '../../shared/domain/documents/document';
import { fileKeys } from '../../shared/domain/files/file-keys';
import { noBusinessMetrics, type BusinessMetric, type BusinessMetrics } from '../../shared/domain/metrics/ports';
import { newOcrJob } from '../../shared/domain/ocr/jobs';
import type { OcrEngine } from '../../shared/domain/ocr/ports';
import type { OcrWorkerServices } from '../../shared/domain/ocr/process-ocr-job';
import { testClients, uniqueName } from './aws-resources';
import { testKit } from './test-kit';
import { aDocumentRecord } from './builders';

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
  const bucket = uniqueName('ocr');
  await ensureBucket(s3, bucket);
  const normal = await ensureQueueWithDlq(sqs, uniqueName('ocr'), { visibilityTimeoutSeconds: 30 });
  const high = await ensureQueueWithDlq(sqs, uniqueName('ocr-high'), { visibilityTimeoutSeconds: 30 });
  const kit = await testKit();
  const files = new S3FileStore(s3, bucket);
  const queues = new SqsOcrJobQueue(sqs, { normal: normal.queueUrl, high: high.queueUrl });
  const workspaceId = crypto.randomUUID();
  await kit.gate.workspaces.create({ id: workspaceId, name: 'OCR', created_at: new Date().toISOString() });
  const worker: OcrWorkerHandlerDeps = {
    ...kit.gate,
    metrics: options.metrics ?? noBusinessMetrics,
    regex: lazyRe2RegexEngine(),
    ruleLog,
    notifications: new DynamoNotificationRepository(kit.db, kit.tableName),
    quotaCounts: kit.quotaCounts,
    engine,
    textLayer: new PdfTextLayerReader(),
    staleAfterSeconds: 300,
    ...(options.searchablePdf ? { searchablePdf: options.searchablePdf } : {}),
    forWorkspace: (id) => ({
      ...kit.stores('workspaceId', 'documents', 'ocrJobs', 'labels', 'rules')(id),
      files: workspaceFileStore(files, id),
      ocrQueue: queues.forWorkspace(id),
    }),
  };
  // What the tests read besides the worker's deps: the workspaces, their status and usage, every workspace's jobs.
  const container = { ...kit.gate, forWorkspace: worker.forWorkspace };
  const deps = inWorkspace(worker, { workspaceId });
  const { documents, files: workspaceFiles, ocrQueue: queue } = deps;
  /** Stores `bytes` as a new document with a queued job; `record` overrides fields of its record (e.g. `size`). */
  const upload = async (bytes: Uint8Array, mimeType = 'application/pdf', record: Partial<DocumentRecord> = {}): Promise<DocumentRecord> => {
    const document = aDocumentRecord({ mime_type: mimeType, size: bytes.length, ...record });
    await workspaceFiles.put(fileKeys.original(document.id), bytes, mimeType);
    await documents.create(document, newOcrJob(document, 'normal', document.created_at));
    return document;
  };
  const poll = (queueUrl = normal.queueUrl) =>
    startQueuePoller({ sqs, queueUrl, handler: createOcrWorkerHandler(worker), waitTimeSeconds: 1, retryDelaySeconds: () => 0 });
  return { sqs, container, worker, deps, documents, files: workspaceFiles, queue, normal, high, upload, poll };
}
