import { ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OCR_CORPUS_DIR } from '../contracts/ocr-engine.contract';
import { ensureBucket, ensureQueueWithDlq } from '../../shared/adapters/aws/provisioning';
import { S3FileStore } from '../../shared/adapters/aws/s3-file-store';
import { SqsOcrJobQueue } from '../../shared/adapters/aws/sqs-ocr-job-queue';
import { startQueuePoller } from '../../shared/adapters/aws/sqs-poller';
import { PdfTextLayerReader } from '../../shared/adapters/imaging/pdf-text-layer-reader';
import { TesseractOcrEngine } from '../../shared/adapters/local/tesseract-ocr-engine';
import { createOcrWorkerHandler } from '../../functions/ocr-worker/handler';
import { buildAppContainer, inWorkspace } from '../../shared/container/app-container';
import { commonEnvSchema, parseEnv } from '../../shared/container/config';
import { fileKeys, type DocumentRecord } from '../../shared/domain/documents/document';
import { newOcrJob } from '../../shared/domain/ocr/jobs';
import type { OcrEngine } from '../../shared/domain/ocr/ports';
import { requeueStuckJobs, cancelOcrJob, setOcrPriority } from '../../shared/domain/ocr/queue-control';
import { textPdf } from '../support/text-pdf';
import { freshTable, testClients, uniqueName } from '../support/aws-resources';
import { aDocumentRecord } from '../support/builders';

const until = async (condition: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

/** The worker's real adapters on fresh resources, and the uploader's side of a job. */
async function pipeline(engine: OcrEngine = new TesseractOcrEngine()) {
  const { sqs, s3 } = testClients();
  const { db, tableName } = await freshTable();
  const bucket = uniqueName('ocr');
  await ensureBucket(s3, bucket);
  const normal = await ensureQueueWithDlq(sqs, uniqueName('ocr'), { visibilityTimeoutSeconds: 30 });
  const high = await ensureQueueWithDlq(sqs, uniqueName('ocr-high'), { visibilityTimeoutSeconds: 30 });
  const container = buildAppContainer({
    db,
    tableName,
    jwtKey: () => Promise.reject(new Error('no tokens here')),
    env: parseEnv(commonEnvSchema, {}),
    healthProbes: [],
    files: new S3FileStore(s3, bucket),
    ocrQueues: new SqsOcrJobQueue(sqs, { normal: normal.queueUrl, high: high.queueUrl }),
  });
  const workspaceId = crypto.randomUUID();
  await container.workspaces.create({ id: workspaceId, name: 'OCR', created_at: new Date().toISOString() });
  const worker = { ...container, engine, textLayer: new PdfTextLayerReader(), staleAfterSeconds: 300 };
  const deps = inWorkspace(worker, { workspaceId });
  const { documents, files, ocrQueue: queue } = deps;
  const upload = async (bytes: Uint8Array, mimeType = 'application/pdf'): Promise<DocumentRecord> => {
    const document = aDocumentRecord({ mime_type: mimeType, size: bytes.length });
    await files.put(fileKeys.original(document.id), bytes, mimeType);
    await documents.create(document, newOcrJob(document, 'normal', document.created_at));
    return document;
  };
  const poll = (queueUrl = normal.queueUrl) =>
    startQueuePoller({ sqs, queueUrl, handler: createOcrWorkerHandler(worker), waitTimeSeconds: 1, retryDelaySeconds: () => 0 });
  return { sqs, container, deps, documents, queue, normal, high, upload, poll };
}

describe('OCR queue semantics on the SQS emulator', () => {
  it('does the work once when the same job is delivered twice', async () => {
    const { deps, documents, queue, upload, poll } = await pipeline();
    const document = await upload(textPdf([['Delivered twice, read once']]));
    await queue.enqueue({ documentId: document.id, run: 1, priority: 'normal' });
    await queue.enqueue({ documentId: document.id, run: 1, priority: 'normal' });

    const poller = poll();
    await until(async () => (await documents.get(document.id))?.status === 'completed');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await poller.stop();

    expect((await deps.ocrJobs.totals()).completed).toBe(1);
    expect(await deps.notifications.list('uploader', { unreadOnly: false, limit: 10 })).toHaveLength(1);
    expect((await deps.ocrJobs.get(document.id))?.attempts).toBe(1);
  });

  it('retries a job whose worker failed on a transient error, and completes it', async () => {
    const tesseract = new TesseractOcrEngine();
    let calls = 0;
    const flaky: OcrEngine = {
      languages: () => tesseract.languages(),
      recognize: (input) => (++calls === 1 ? Promise.reject(new Error('worker crashed')) : tesseract.recognize(input)),
    };
    const { deps, documents, queue, upload, poll } = await pipeline(flaky);
    const document = await upload(readFileSync(join(OCR_CORPUS_DIR, 'typewriter.png')), 'image/png');
    await queue.enqueue({ documentId: document.id, run: 1, priority: 'normal' });

    const poller = poll();
    await until(async () => (await documents.get(document.id))?.status === 'completed', 60_000);
    await poller.stop();

    expect(calls).toBe(2);
    expect((await deps.ocrJobs.get(document.id))?.attempts).toBe(2);
  }, 90_000);

  it('ends the document failed on the fifth transient failure instead of leaving it pending', async () => {
    const broken: OcrEngine = { languages: async () => ['eng'], recognize: () => Promise.reject(new Error('engine down')) };
    const { documents, queue, upload, poll } = await pipeline(broken);
    const document = await upload(new Uint8Array(Buffer.from('%PDF-1.4 not a text layer')));
    await queue.enqueue({ documentId: document.id, run: 1, priority: 'normal' });

    const poller = poll();
    await until(async () => (await documents.get(document.id))?.status === 'failed', 60_000);
    await poller.stop();

    expect((await documents.get(document.id))?.failure_reason).toContain('5 times');
  }, 90_000);

  it('moves a message whose handler keeps failing to the DLQ after 5 receives', async () => {
    const { sqs, normal } = await pipeline();
    await sqs.send(new SendMessageCommand({ QueueUrl: normal.queueUrl, MessageBody: '{"poison":true}' }));
    let deliveries = 0;
    const poller = startQueuePoller({
      sqs,
      queueUrl: normal.queueUrl,
      handler: async () => {
        deliveries++;
        throw new Error('always');
      },
      waitTimeSeconds: 1,
      retryDelaySeconds: () => 0,
    });

    let dead: unknown[] = [];
    await until(async () => {
      const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: normal.dlqUrl, WaitTimeSeconds: 0 }));
      dead = Messages;
      return Messages.length > 0;
    }, 30_000);
    await poller.stop();

    expect(deliveries).toBe(5);
    expect(dead).toHaveLength(1);
  }, 60_000);

  it('skips a job cancelled while it was queued', async () => {
    const { deps, documents, queue, upload, poll } = await pipeline();
    const document = await upload(textPdf([['Never read']]));
    await queue.enqueue({ documentId: document.id, run: 1, priority: 'normal' });

    await cancelOcrJob(deps, document.id);
    const poller = poll();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await poller.stop();

    expect(await documents.get(document.id)).toMatchObject({ status: 'failed', failure_reason: 'cancelled' });
    expect(await documents.getContent(document.id)).toEqual({ text: '' });
  });

  it('sends a job whose priority is raised to the high queue, where the high worker takes it', async () => {
    const { deps, documents, upload, poll, high } = await pipeline();
    const document = await upload(textPdf([['Urgent letter']]));

    await setOcrPriority(deps, document.id, 'high');
    const poller = poll(high.queueUrl);
    await until(async () => (await documents.get(document.id))?.status === 'completed');
    await poller.stop();

    expect((await deps.ocrJobs.get(document.id))?.priority).toBe('high');
  });

  it('queues again a job whose message was lost, so it completes', async () => {
    const { container, documents, upload, poll } = await pipeline();
    const document = await upload(textPdf([['The message of this job never reached the queue']]));

    const requeued = await requeueStuckJobs({ ...container, queuedForSeconds: 0, silentForSeconds: 300 });
    const poller = poll();
    await until(async () => (await documents.get(document.id))?.status === 'completed');
    await poller.stop();

    expect(requeued).toBe(1);
  });
});
