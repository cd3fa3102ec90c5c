import { GetQueueAttributesCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { OcrEngineBusy, type OcrEngine, type OcrInput } from '../../../../shared/domain/ocr/ports';
import { processOcrJob } from '../../../../shared/domain/ocr/process-ocr-job';
import { requeueStuckJobs } from '../../../../shared/domain/ocr/requeue-stuck-jobs';
import { cancelOcrJob } from '../../../../shared/domain/ocr/cancel-ocr-job';
import { MAX_DEFERRALS } from '../../../../shared/domain/ocr/throttling';
import { textPdf } from '../../../support/text-pdf';
import { ocrPipeline, RecordedMetrics } from '../../../support/ocr-pipeline';

/** An engine that throttles its first `times` calls, then reads "read at last" on one page. */
const throttling = (times = Number.POSITIVE_INFINITY) => {
  const calls: OcrInput[] = [];
  const engine: OcrEngine = {
    languages: async () => ['eng'],
    recognize: async (input) => {
      calls.push(input);
      if (calls.length <= times) throw new OcrEngineBusy('the engine is throttling');
      return { text: 'read at last', confidence: 0.9, pages: 1 };
    },
  };
  return { engine, calls };
};

const SCAN = new Uint8Array(Buffer.from('%PDF-1.4 a scan without a text layer'));

describe('OCR worker: throttling', () => {
  it('puts a job the engine is throttling back on its queue, delayed, without spending an attempt', async () => {
    const { engine } = throttling();
    const { deps, sqs, normal, upload } = await ocrPipeline(engine);
    const document = await upload(SCAN);

    const outcome = await processOcrJob({ ...deps, random: () => 0 }, { documentId: document.id, run: 1, priority: 'normal' });

    expect(outcome).toBe('deferred');
    const job = await deps.ocrJobs.get(document.id);
    expect(job).toMatchObject({ status: 'queued', attempts: 0 });
    expect(Date.parse(job!.deferred_until!) - Date.now()).toBeGreaterThan(20_000);
    const { Attributes } = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: normal.queueUrl, AttributeNames: ['ApproximateNumberOfMessagesDelayed'] }),
    );
    expect(Number(Attributes?.['ApproximateNumberOfMessagesDelayed'])).toBe(1);
    expect((await sqs.send(new ReceiveMessageCommand({ QueueUrl: normal.queueUrl, WaitTimeSeconds: 0 }))).Messages ?? []).toHaveLength(0);
  });

  it('keeps the document pending while its job is deferred', async () => {
    const { engine } = throttling();
    const { deps, documents, upload } = await ocrPipeline(engine);
    const document = await upload(SCAN);

    await processOcrJob(deps, { documentId: document.id, run: 1, priority: 'normal' });

    expect((await documents.get(document.id))?.status).toBe('pending');
  });

  it('completes a deferred job when its delayed message comes back, counting one attempt', async () => {
    const { engine } = throttling(1);
    const { deps, documents, upload } = await ocrPipeline(engine);
    const document = await upload(SCAN);
    await processOcrJob(deps, { documentId: document.id, run: 1, priority: 'normal' });

    const outcome = await processOcrJob(deps, { documentId: document.id, run: 1, priority: 'normal', deferrals: 1 });

    expect(outcome).toBe('completed');
    expect((await documents.get(document.id))?.status).toBe('completed');
    expect(await deps.ocrJobs.get(document.id)).toMatchObject({ attempts: 1 });
    expect((await deps.ocrJobs.get(document.id))?.deferred_until).toBeUndefined();
  });

  it('counts throttling as a failed attempt once the run was deferred the most times allowed', async () => {
    const { engine } = throttling();
    const { deps, upload } = await ocrPipeline(engine);
    const document = await upload(SCAN);

    const delivery = processOcrJob(deps, { documentId: document.id, run: 1, priority: 'normal', deferrals: MAX_DEFERRALS });

    await expect(delivery).rejects.toBeInstanceOf(OcrEngineBusy);
    expect(await deps.ocrJobs.get(document.id)).toMatchObject({ status: 'queued', attempts: 1 });
  });

  it('does not send a deferred job again as stuck before its delay has passed', async () => {
    const { engine } = throttling();
    const { container, deps, upload } = await ocrPipeline(engine);
    const document = await upload(SCAN);
    await processOcrJob(deps, { documentId: document.id, run: 1, priority: 'normal' });

    const requeued = await requeueStuckJobs({ ...container, queuedForSeconds: 0, silentForSeconds: 300 });

    expect(requeued).toBe(0);
  });

  it('sends a deferred job again as stuck once its delay and the stuck bound have passed', async () => {
    const { engine } = throttling();
    const { container, deps, upload } = await ocrPipeline(engine);
    const document = await upload(SCAN);
    await processOcrJob(deps, { documentId: document.id, run: 1, priority: 'normal' });
    const later = new Date(Date.now() + 2 * 3600_000);

    const requeued = await requeueStuckJobs({ ...container, clock: { now: () => later }, queuedForSeconds: 1800, silentForSeconds: 300 });

    expect(requeued).toBe(1);
  });
});

describe('OCR worker: large files', () => {
  it('gives a PDF above the text-layer bound to the engine without reading it', async () => {
    const calls: OcrInput[] = [];
    const engine: OcrEngine = {
      languages: async () => ['eng'],
      recognize: async (input) => (calls.push(input), { text: 'read from the bucket', confidence: 0.8, pages: 3 }),
    };
    const { deps, documents, files, upload } = await ocrPipeline(engine);
    const tooLarge = deps.textLayer.maxInputBytes + 1;
    // The stored file is small, the record says it is large: reading it would find text in its layer.
    const document = await upload(textPdf([['Text layer that must not be read by the worker']]), 'application/pdf', { size: tooLarge });
    const read: string[] = [];
    const watched = { ...deps, files: { ...files, get: (key: string) => (read.push(key), files.get(key)) } };

    const outcome = await processOcrJob(watched, { documentId: document.id, run: 1, priority: 'normal' });

    expect(outcome).toBe('completed');
    expect(read).toEqual([]);
    expect(calls[0]).toMatchObject({ size: tooLarge, sha256: document.sha256 });
    expect(await documents.getContent(document.id)).toEqual({ text: 'read from the bucket' });
  });

  it('reads the text layer of a PDF within the bound, reading the file once', async () => {
    const { engine, calls } = throttling();
    const { deps, documents, files, upload } = await ocrPipeline(engine);
    const document = await upload(textPdf([['A born-digital letter with a text layer of its own']]));
    const read: string[] = [];
    const watched = { ...deps, files: { ...files, get: (key: string) => (read.push(key), files.get(key)) } };

    await processOcrJob(watched, { documentId: document.id, run: 1, priority: 'normal' });

    expect(calls).toHaveLength(0);
    expect(read).toHaveLength(1);
    expect(await documents.getContent(document.id)).toEqual({ text: 'A born-digital letter with a text layer of its own' });
  });
});

describe('OCR worker: the end of a run', () => {
  it('ends a job cancelled while its last page was read as cancelled, storing no text', async () => {
    let cancel: () => Promise<unknown> = async () => undefined;
    const engine: OcrEngine = {
      languages: async () => ['eng'],
      recognize: async () => (await cancel(), { text: 'read, then thrown away', confidence: 0.9, pages: 1 }),
    };
    const { deps, documents, upload } = await ocrPipeline(engine);
    const document = await upload(SCAN);
    cancel = () => cancelOcrJob(deps, document.id);

    const outcome = await processOcrJob(deps, { documentId: document.id, run: 1, priority: 'normal' });

    expect(outcome).toBe('cancelled');
    expect(await documents.get(document.id)).toMatchObject({ status: 'failed', failure_reason: 'cancelled' });
    expect(await documents.getContent(document.id)).toEqual({ text: '' });
  });
});

describe('OCR worker: business metrics', () => {
  it('counts the pages the engine read', async () => {
    const metrics = new RecordedMetrics();
    const engine: OcrEngine = { languages: async () => ['eng'], recognize: async () => ({ text: 'three pages', confidence: 0.9, pages: 3 }) };
    const { deps, upload } = await ocrPipeline(engine, { metrics });
    const document = await upload(SCAN);

    await processOcrJob(deps, { documentId: document.id, run: 1, priority: 'normal' });

    expect(metrics.counts.get('PagesOcred')).toBe(3);
  });

  it('does not count a text layer as pages OCRed', async () => {
    const metrics = new RecordedMetrics();
    const { deps, upload } = await ocrPipeline(throttling().engine, { metrics });
    const document = await upload(textPdf([['Already text, nothing for the engine to read']]));

    await processOcrJob(deps, { documentId: document.id, run: 1, priority: 'normal' });

    expect(metrics.counts.get('PagesOcred')).toBeUndefined();
  });

  it('counts a document that could not be read as an OCR failure', async () => {
    const metrics = new RecordedMetrics();
    const { deps, upload } = await ocrPipeline(throttling().engine, { metrics });
    const document = await upload(SCAN);
    await deps.files.deletePrefix(`documents/${document.id}/`);

    const outcome = await processOcrJob(deps, { documentId: document.id, run: 1, priority: 'normal' });

    expect(outcome).toBe('failed');
    expect(metrics.counts.get('OcrFailures')).toBe(1);
  });
});

describe('OCR worker: a file replaced while it is read', () => {
  /** An engine that reads "old words" and, on its first call, has a sync replace the document's file meanwhile. */
  const replacedWhileRead = (replace: () => Promise<void>) => {
    let calls = 0;
    const engine: OcrEngine = {
      languages: async () => ['eng'],
      recognize: async () => {
        calls++;
        if (calls === 1) {
          await replace();
          return { text: 'old words', confidence: 0.9, pages: 1 };
        }
        return { text: 'new words', confidence: 0.9, pages: 1 };
      },
    };
    return engine;
  };

  it('hands the job to a new run instead of completing with the old file text', async () => {
    let replaceFile: () => Promise<void> = async () => undefined;
    const { deps, documents, upload, sqs, normal } = await ocrPipeline(replacedWhileRead(() => replaceFile()));
    const document = await upload(SCAN);
    replaceFile = async () => void (await documents.replaceFile(document.id, { size: SCAN.length, sha256: 'sha-of-the-new-file', mime_type: 'application/pdf' }, new Date().toISOString()));

    const outcome = await processOcrJob(deps, { documentId: document.id, run: 1, priority: 'normal' });

    expect(outcome).toBe('superseded');
    expect(await deps.ocrJobs.get(document.id)).toMatchObject({ status: 'queued', run: 2, attempts: 0 });
    expect(await documents.getContent(document.id)).toEqual({ text: '' });
    const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: normal.queueUrl, WaitTimeSeconds: 1, MaxNumberOfMessages: 10 }));
    expect((Messages ?? []).map((message) => JSON.parse(message.Body!))).toContainEqual(expect.objectContaining({ document_id: document.id, run: 2 }));
  });

  it('completes the new run with the text of the new file', async () => {
    let replaceFile: () => Promise<void> = async () => undefined;
    const { deps, documents, upload } = await ocrPipeline(replacedWhileRead(() => replaceFile()));
    const document = await upload(SCAN);
    replaceFile = async () => void (await documents.replaceFile(document.id, { size: SCAN.length, sha256: 'sha-of-the-new-file', mime_type: 'application/pdf' }, new Date().toISOString()));
    await processOcrJob(deps, { documentId: document.id, run: 1, priority: 'normal' });

    const outcome = await processOcrJob(deps, { documentId: document.id, run: 2, priority: 'normal' });

    expect(outcome).toBe('completed');
    expect(await documents.getContent(document.id)).toEqual({ text: 'new words' });
    expect((await documents.get(document.id))?.status).toBe('completed');
  });
});
