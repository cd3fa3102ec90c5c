import { ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OCR_CORPUS_DIR } from '../../../contracts/ocr-engine.contract';
import { startQueuePoller } from '../../../../shared/local/event-sources/sqs-poller';
import { TesseractOcrEngine } from '../../../../shared/adapters/local/tesseract-ocr-engine';
import type { OcrEngine } from '../../../../shared/domain/ocr/ports';
import { requeueStuckJobs } from '../../../../shared/domain/ocr/requeue-stuck-jobs';
import { cancelOcrJob } from '../../../../shared/domain/ocr/cancel-ocr-job';
import { setOcrPriority } from '../../../../shared/domain/ocr/set-ocr-priority';
import { textPdf } from '../../../support/text-pdf';
import { ocrPipeline as pipeline } from '../../../support/ocr-pipeline';
import { until } from '../../../support/until';

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
