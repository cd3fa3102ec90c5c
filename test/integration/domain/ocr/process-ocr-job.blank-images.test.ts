import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { type Block, DetectDocumentTextCommand, TextractClient } from '@aws-sdk/client-textract';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { TextractOcrEngine } from '../../../../shared/adapters/aws/textract/ocr-engine';
import { PdfTextLayerReader } from '../../../../shared/adapters/imaging/pdf-text-layer-reader';
import { processOcrJob } from '../../../../shared/domain/ocr/process-ocr-job';
import { OCR_CORPUS_DIR } from '../../../contracts/ocr-engine.contract';
import { paperPng } from '../../../support/paper-scan';
import { ocrPipeline, RecordedMetrics } from '../../../support/ocr-pipeline';

const LINN = new Uint8Array(readFileSync(path.join(OCR_CORPUS_DIR, 'linn.png')));

const run = (deps: Parameters<typeof processOcrJob>[0], documentId: string) => processOcrJob(deps, { documentId, run: 1, priority: 'normal' });

describe('OCR worker: an image file of blank paper, in the cloud (Textract mocked)', () => {
  const textract = mockClient(TextractClient);
  afterEach(() => textract.reset());
  // The blank check runs on the imaging workers, as the cloud's entry composes it.
  const reader = new PdfTextLayerReader({ poolOptions: { size: 1 } });
  afterAll(() => reader.close());
  const engine = new TextractOcrEngine({ client: new TextractClient({ region: 'eu-west-1' }), bucket: 'documents' });

  const blocks = (text: string, confidence: number): Block[] => [
    { BlockType: 'PAGE', Id: 'p', Page: 1, Relationships: [{ Type: 'CHILD', Ids: ['l'] }] },
    { BlockType: 'LINE', Id: 'l', Page: 1, Text: text },
    ...text.split(' ').map((word, i): Block => ({ BlockType: 'WORD', Id: `w${i}`, Page: 1, Text: word, Confidence: confidence })),
  ];

  it('completes a PNG of blank paper without any call to Textract, with confidence 1 and no page counted', async () => {
    const metrics = new RecordedMetrics();
    const { deps, documents, upload } = await ocrPipeline(engine, { metrics });
    const document = await upload(await paperPng(2550, 3300, 246), 'image/png');

    expect(await run({ ...deps, blankPages: reader }, document.id)).toBe('completed');

    expect(textract.calls()).toHaveLength(0);
    expect(metrics.counts.get('PagesOcred') ?? 0).toBe(0);
    const record = await documents.get(document.id);
    expect(record).toMatchObject({ status: 'completed', ocr_confidence: 1, pages_ocred_by_engine: {} });
    expect(await documents.getContent(document.id)).toEqual({ text: '' });
  }, 60_000);

  it('still sends Textract a PNG with text, once', async () => {
    textract.on(DetectDocumentTextCommand).resolves({ Blocks: blocks('The LinnSequencer', 96), DocumentMetadata: { Pages: 1 } });
    const { deps, documents, upload } = await ocrPipeline(engine);
    const document = await upload(LINN, 'image/png');

    expect(await run({ ...deps, blankPages: reader }, document.id)).toBe('completed');

    expect(textract.commandCalls(DetectDocumentTextCommand)).toHaveLength(1);
    expect(await documents.get(document.id)).toMatchObject({ ocr_confidence: 0.96, pages_ocred_by_engine: { textract: 1 } });
  }, 60_000);

  it('still sends Textract a PNG of paper with a page number at its foot: a mark is not blank paper', async () => {
    textract.on(DetectDocumentTextCommand).resolves({ Blocks: blocks('7', 90), DocumentMetadata: { Pages: 1 } });
    const { deps, documents, upload } = await ocrPipeline(engine);
    const document = await upload(await paperPng(2550, 3300, 246, { text: 'Page 7', size: 60 }), 'image/png');

    expect(await run({ ...deps, blankPages: reader }, document.id)).toBe('completed');

    expect(textract.commandCalls(DetectDocumentTextCommand)).toHaveLength(1);
    expect(await documents.get(document.id)).toMatchObject({ pages_ocred_by_engine: { textract: 1 } });
  }, 60_000);

  it('sends Textract an image the check cannot decode, as before: the check never fails the run', async () => {
    textract.on(DetectDocumentTextCommand).resolves({ Blocks: blocks('Whatever Textract reads', 80), DocumentMetadata: { Pages: 1 } });
    const { deps, documents, upload } = await ocrPipeline(engine);
    const paper = await paperPng(1275, 1650, 246);
    // The header and the first rows stand; the rest of the image data is garbage.
    const corrupt = new Uint8Array(paper);
    corrupt.fill(0x5a, 200, corrupt.length - 12);
    const document = await upload(corrupt, 'image/png');

    expect(await run({ ...deps, blankPages: reader }, document.id)).toBe('completed');

    expect(textract.commandCalls(DetectDocumentTextCommand)).toHaveLength(1);
    expect(await documents.get(document.id)).toMatchObject({ pages_ocred_by_engine: { textract: 1 } });
  }, 60_000);
});
