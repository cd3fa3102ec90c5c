import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { type Block, DetectDocumentTextCommand, StartDocumentTextDetectionCommand, TextractClient } from '@aws-sdk/client-textract';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { countPdfPages } from '../../../../shared/adapters/aws/textract/file-inspection';
import { TextractOcrEngine } from '../../../../shared/adapters/aws/textract/ocr-engine';
import { PdfTextLayerReader } from '../../../../shared/adapters/imaging/pdf-text-layer-reader';
import { TesseractOcrEngine } from '../../../../shared/adapters/local/tesseract-ocr-engine';
import { PAGE_SEPARATOR } from '../../../../shared/domain/ocr/page-texts';
import type { OcrEngine, OcrInput } from '../../../../shared/domain/ocr/ports';
import { processOcrJob } from '../../../../shared/domain/ocr/process-ocr-job';
import { OCR_CORPUS_DIR } from '../../../contracts/ocr-engine.contract';
import { mixedPdf } from '../../../support/mixed-pdf';
import { paperPng } from '../../../support/paper-scan';
import { ocrPipeline, RecordedMetrics } from '../../../support/ocr-pipeline';
import { textPdf } from '../../../support/text-pdf';

const LINN = new Uint8Array(readFileSync(path.join(OCR_CORPUS_DIR, 'linn.png')));

/** An engine that must not be asked: every page had its text. */
const noEngine = () => {
  const calls: OcrInput[] = [];
  const engine: OcrEngine = {
    name: 'tesseract',
    languages: async () => ['eng'],
    recognize: async (input) => {
      calls.push(input);
      throw new Error('no page of this document needs OCR');
    },
  };
  return { engine, calls };
};

const run = (deps: Parameters<typeof processOcrJob>[0], documentId: string) => processOcrJob(deps, { documentId, run: 1, priority: 'normal' });

describe('OCR worker: per page', () => {
  it('keeps the exact text of a one-page PDF whose layer is short ("Alpha alphaxpkcbgsjl"), with confidence 1', async () => {
    const { engine, calls } = noEngine();
    const { deps, documents, upload } = await ocrPipeline(engine);
    const document = await upload(textPdf([['Alpha alphaxpkcbgsjl']]));

    expect(await run(deps, document.id)).toBe('completed');

    expect(calls).toHaveLength(0);
    expect(await documents.getContent(document.id)).toEqual({ text: 'Alpha alphaxpkcbgsjl' });
    expect(await documents.get(document.id)).toMatchObject({ ocr_confidence: 1, pages_ocred_by_engine: { text_layer: 1 } });
  });

  it('keeps the text of a born-digital PDF with a blank page and a page number-only page, OCRing nothing', async () => {
    const { engine, calls } = noEngine();
    const metrics = new RecordedMetrics();
    const { deps, documents, upload } = await ocrPipeline(engine, { metrics });
    const document = await upload(textPdf([['Quarterly report of the allotment society'], [], ['3']]));

    expect(await run(deps, document.id)).toBe('completed');

    expect(calls).toHaveLength(0);
    expect(await documents.getContent(document.id)).toEqual({ text: ['Quarterly report of the allotment society', '', '3'].join(PAGE_SEPARATOR) });
    // The blank page is counted under no engine.
    expect(await documents.get(document.id)).toMatchObject({ ocr_confidence: 1, pages_ocred_by_engine: { text_layer: 2 } });
    expect(metrics.counts.get('PagesOcred') ?? 0).toBe(0);
  });

  it('OCRs only the scanned page of a mixed PDF with Tesseract: 1 text_layer + 1 tesseract', async () => {
    const tesseract = new TesseractOcrEngine();
    const metrics = new RecordedMetrics();
    const { deps, documents, upload } = await ocrPipeline(tesseract, { metrics });
    const pdf = await mixedPdf([{ text: ['Cover letter with an exact text layer'] }, { png: LINN }]);
    const document = await upload(pdf);

    expect(await run(deps, document.id)).toBe('completed');

    expect(tesseract.stats.pages).toBe(1);
    expect(metrics.counts.get('PagesOcred')).toBe(1);
    const { text } = (await documents.getContent(document.id)) as { text: string };
    const [first, second] = text.split(PAGE_SEPARATOR);
    expect(first).toBe('Cover letter with an exact text layer');
    expect(second).toContain('LinnSequencer');
    const record = await documents.get(document.id);
    expect(record).toMatchObject({ pages_ocred_by_engine: { text_layer: 1, tesseract: 1 } });
    // The confidence is the scanned page's, not lifted by the exact one.
    expect(record?.ocr_confidence).toBeGreaterThan(0.5);
    expect(record?.ocr_confidence).toBeLessThan(1);
  }, 60_000);

  it('reads the issue\'s 20-page PDF (18 text pages, a blank one, a scanned one) as 18 text_layer + 1 tesseract', async () => {
    const tesseract = new TesseractOcrEngine();
    const { deps, documents, upload } = await ocrPipeline(tesseract);
    const text = (n: number) => [`Page ${n} of the annual report, with its own exact text layer`, `Figures for section ${n}`];
    const pages = Array.from({ length: 20 }, (_, i) => (i === 6 ? { blank: true as const } : i === 13 ? { png: LINN } : { text: text(i + 1) }));
    const document = await upload(await mixedPdf(pages));

    expect(await run(deps, document.id)).toBe('completed');

    expect(tesseract.stats.pages).toBe(1);
    const record = await documents.get(document.id);
    expect(record).toMatchObject({ pages_ocred_by_engine: { text_layer: 18, tesseract: 1 } });
    const read = ((await documents.getContent(document.id)) as { text: string }).text.split(PAGE_SEPARATOR);
    expect(read).toHaveLength(20);
    for (const [i, page] of read.entries()) {
      if (i === 6) expect(page).toBe('');
      else if (i === 13) expect(page).toContain('LinnSequencer');
      else expect(page).toBe(text(i + 1).join('\n'));
    }
  }, 60_000);

  it('finds a scanned blank page from its pixels and reads it with nobody: 1 text_layer + 1 tesseract, the blank scan under none', async () => {
    const tesseract = new TesseractOcrEngine();
    const metrics = new RecordedMetrics();
    const { deps, documents, upload } = await ocrPipeline(tesseract, { metrics });
    const paper = await paperPng(1275, 1650, 250);
    const document = await upload(await mixedPdf([{ text: ['Cover letter with an exact text layer'] }, { png: paper, dpi: 150 }, { png: LINN }]));

    expect(await run(deps, document.id)).toBe('completed');

    expect(tesseract.stats).toMatchObject({ pages: 1, blankPages: 1 });
    expect(metrics.counts.get('PagesOcred')).toBe(1);
    expect(await documents.get(document.id)).toMatchObject({ pages_ocred_by_engine: { text_layer: 1, tesseract: 1 } });
    const read = ((await documents.getContent(document.id)) as { text: string }).text.split(PAGE_SEPARATOR);
    expect(read.slice(0, 2)).toEqual(['Cover letter with an exact text layer', '']);
  }, 60_000);

  it('gives a scan of blank paper alone confidence 1 and counts its page under no engine', async () => {
    const tesseract = new TesseractOcrEngine();
    const { deps, documents, upload } = await ocrPipeline(tesseract);
    const document = await upload(await mixedPdf([{ png: await paperPng(1275, 1650, 245), dpi: 150 }]));

    expect(await run(deps, document.id)).toBe('completed');

    expect(tesseract.stats).toMatchObject({ pages: 0, blankPages: 1 });
    const record = await documents.get(document.id);
    expect(record?.ocr_confidence).toBe(1);
    expect(record?.pages_ocred_by_engine).toEqual({});
  }, 60_000);

  it('completes a PDF whose only page draws nothing (the corpus\'s blank.pdf) without any engine, counting no page', async () => {
    const { engine, calls } = noEngine();
    const { deps, documents, upload } = await ocrPipeline(engine);
    const document = await upload(new Uint8Array(readFileSync(path.join(OCR_CORPUS_DIR, 'blank.pdf'))));

    expect(await run(deps, document.id)).toBe('completed');

    expect(calls).toHaveLength(0);
    const record = await documents.get(document.id);
    expect(record?.ocr_confidence).toBe(1);
    expect(record?.pages_ocred_by_engine).toEqual({});
    expect(await documents.getContent(document.id)).toEqual({ text: '' });
  });

  it('reads a PDF of scans only with the engine, whole, as before', async () => {
    const tesseract = new TesseractOcrEngine();
    const { deps, documents, upload } = await ocrPipeline(tesseract);
    const document = await upload(await mixedPdf([{ png: LINN }]));

    expect(await run(deps, document.id)).toBe('completed');

    expect(await documents.get(document.id)).toMatchObject({ pages_ocred_by_engine: { tesseract: 1 } });
  }, 60_000);
});

describe('OCR worker: per page, in the cloud (Textract mocked)', () => {
  const textract = mockClient(TextractClient);
  afterEach(() => textract.reset());

  const blocks = (text: string, confidence: number): Block[] => [
    { BlockType: 'PAGE', Id: 'p', Page: 1, Relationships: [{ Type: 'CHILD', Ids: ['l'] }] },
    { BlockType: 'LINE', Id: 'l', Page: 1, Text: text },
    ...text.split(' ').map((word, i): Block => ({ BlockType: 'WORD', Id: `w${i}`, Page: 1, Text: word, Confidence: confidence })),
  ];

  it('sends Textract only the pages without text, each as a one-page PDF: 2 text_layer + 1 textract', async () => {
    textract.on(DetectDocumentTextCommand).resolves({ Blocks: blocks('The LinnSequencer', 96), DocumentMetadata: { Pages: 1 } });
    const reader = new PdfTextLayerReader();
    const engine = new TextractOcrEngine({
      client: new TextractClient({ region: 'eu-west-1' }),
      bucket: 'documents',
      pagePdfs: (bytes, pages) => reader.pagePdfs(bytes, pages),
    });
    const { deps, documents, upload } = await ocrPipeline(engine);
    const pdf = await mixedPdf([{ text: ['First page with its own text layer'] }, { png: LINN }, { blank: true }, { text: ['Last page, also text'] }]);
    const document = await upload(pdf);

    expect(await run(deps, document.id)).toBe('completed');

    const calls = textract.commandCalls(DetectDocumentTextCommand);
    expect(calls).toHaveLength(1);
    const sent = calls[0]!.args[0].input.Document?.Bytes;
    expect(sent && countPdfPages(sent)).toBe(1);
    expect(textract.commandCalls(StartDocumentTextDetectionCommand)).toHaveLength(0);
    expect(await documents.getContent(document.id)).toEqual({
      text: ['First page with its own text layer', 'The LinnSequencer', '', 'Last page, also text'].join(PAGE_SEPARATOR),
    });
    expect(await documents.get(document.id)).toMatchObject({ ocr_confidence: 0.96, pages_ocred_by_engine: { text_layer: 2, textract: 1 } });
    await reader.close();
  });

  /** Textract with pages sent one by one, and the worker's blank check on the same imaging workers, as the cloud's entry composes them. */
  const cloud = () => {
    const reader = new PdfTextLayerReader({ poolOptions: { size: 1 } });
    const engine = new TextractOcrEngine({
      client: new TextractClient({ region: 'eu-west-1' }),
      bucket: 'documents',
      pagePdfs: (bytes, pages) => reader.pagePdfs(bytes, pages),
    });
    return { reader, engine };
  };

  it('sends Textract no call for a scanned blank page, and counts it under no engine: 1 text_layer + 1 textract', async () => {
    textract.on(DetectDocumentTextCommand).resolves({ Blocks: blocks('The LinnSequencer', 96), DocumentMetadata: { Pages: 1 } });
    const { reader, engine } = cloud();
    const metrics = new RecordedMetrics();
    const { deps, documents, upload } = await ocrPipeline(engine, { metrics });
    const paper = await paperPng(1275, 1650, 246);
    const document = await upload(await mixedPdf([{ text: ['Cover letter with an exact text layer'] }, { png: LINN }, { png: paper, dpi: 150 }]));

    expect(await run({ ...deps, blankPages: reader }, document.id)).toBe('completed');

    expect(textract.commandCalls(DetectDocumentTextCommand)).toHaveLength(1);
    expect(textract.commandCalls(StartDocumentTextDetectionCommand)).toHaveLength(0);
    expect(metrics.counts.get('PagesOcred')).toBe(1);
    expect(await documents.getContent(document.id)).toEqual({ text: ['Cover letter with an exact text layer', 'The LinnSequencer', ''].join(PAGE_SEPARATOR) });
    expect(await documents.get(document.id)).toMatchObject({ pages_ocred_by_engine: { text_layer: 1, textract: 1 } });
    await reader.close();
  }, 60_000);

  it('sends Textract only the scanned page with text of a two-page scan whose other page is blank paper, alone', async () => {
    textract.on(DetectDocumentTextCommand).resolves({ Blocks: blocks('The LinnSequencer', 96), DocumentMetadata: { Pages: 1 } });
    const { reader, engine } = cloud();
    const { deps, documents, upload } = await ocrPipeline(engine);
    const document = await upload(await mixedPdf([{ png: await paperPng(1275, 1650, 240), dpi: 150 }, { png: LINN }]));

    expect(await run({ ...deps, blankPages: reader }, document.id)).toBe('completed');

    const calls = textract.commandCalls(DetectDocumentTextCommand);
    expect(calls).toHaveLength(1);
    expect(countPdfPages(calls[0]!.args[0].input.Document!.Bytes!)).toBe(1);
    expect(textract.commandCalls(StartDocumentTextDetectionCommand)).toHaveLength(0);
    expect(await documents.getContent(document.id)).toEqual({ text: ['', 'The LinnSequencer'].join(PAGE_SEPARATOR) });
    expect(await documents.get(document.id)).toMatchObject({ ocr_confidence: 0.96, pages_ocred_by_engine: { textract: 1 } });
    await reader.close();
  }, 60_000);

  it('completes a scan of blank paper alone without any call to Textract, with confidence 1 and no page counted', async () => {
    const { reader, engine } = cloud();
    const { deps, documents, upload } = await ocrPipeline(engine);
    const document = await upload(await mixedPdf([{ png: await paperPng(1275, 1650, 246), dpi: 150 }]));

    expect(await run({ ...deps, blankPages: reader }, document.id)).toBe('completed');

    expect(textract.calls()).toHaveLength(0);
    const record = await documents.get(document.id);
    expect(record?.ocr_confidence).toBe(1);
    expect(record?.pages_ocred_by_engine).toEqual({});
    await reader.close();
  }, 60_000);

  it('still sends the scanned blank page when the blank check fails: the check never fails the run', async () => {
    textract.on(DetectDocumentTextCommand).resolves({ Blocks: [], DocumentMetadata: { Pages: 1 } });
    const { reader, engine } = cloud();
    const { deps, documents, upload } = await ocrPipeline(engine);
    const document = await upload(await mixedPdf([{ text: ['Cover letter with an exact text layer'] }, { png: await paperPng(1275, 1650, 246), dpi: 150 }]));
    const busy = async () => Promise.reject(new Error('every imaging worker is busy'));
    const failing = { blankPages: busy, blankImagePages: busy };

    expect(await run({ ...deps, blankPages: failing }, document.id)).toBe('completed');

    expect(textract.commandCalls(DetectDocumentTextCommand)).toHaveLength(1);
    expect(await documents.get(document.id)).toMatchObject({ status: 'completed' });
    await reader.close();
  }, 60_000);
});
