import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { type DetectDocumentTextCommandOutput, DetectDocumentTextCommand, TextractClient } from '@aws-sdk/client-textract';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { TextractOcrEngine } from '../../../../shared/adapters/aws/textract/ocr-engine';
import { PdfTextLayerReader } from '../../../../shared/adapters/imaging/pdf-text-layer-reader';
import { TesseractOcrEngine } from '../../../../shared/adapters/local/tesseract-ocr-engine';
import { PoolSearchablePdfWriter } from '../../../../shared/adapters/pdf/pool-searchable-pdf-writer';
import { writeSearchablePdf } from '../../../../shared/adapters/pdf/searchable-pdf';
import { deleteDocument } from '../../../../shared/domain/documents/delete-document';
import { downloadSearchablePdf } from '../../../../shared/domain/documents/searchable-pdf-download';
import { AppError } from '../../../../shared/domain/errors';
import { fileKeys } from '../../../../shared/domain/files/file-keys';
import { processOcrJob } from '../../../../shared/domain/ocr/process-ocr-job';
import { retryOcr } from '../../../../shared/domain/ocr/retry-ocr';
import { monthOf } from '../../../../shared/domain/usage/usage';
import { OCR_CORPUS_DIR } from '../../../contracts/ocr-engine.contract';
import { mixedPdf } from '../../../support/mixed-pdf';
import { ocrPipeline } from '../../../support/ocr-pipeline';
import { fileInput } from '../../../support/ocr-input';
import { extractWords, placementErrors, wordRecall } from '../../../support/pdf-words';
import { rejectionOf } from '../../../support/rejection';
import { textPdf } from '../../../support/text-pdf';

const LINN = new Uint8Array(readFileSync(path.join(OCR_CORPUS_DIR, 'linn.png')));

const writer = new PoolSearchablePdfWriter({ poolOptions: { size: 1 } });
afterAll(() => writer.close());

const run = (deps: Parameters<typeof processOcrJob>[0], documentId: string, attempt = 1) => processOcrJob(deps, { documentId, run: attempt, priority: 'normal' });

/** What the 404 of GET /api/documents/{id}/searchable-pdf says. */
const missing = async (deps: Parameters<typeof downloadSearchablePdf>[0], id: string) => (await rejectionOf(downloadSearchablePdf(deps, id), AppError)).details;

describe('OCR worker: the searchable PDF', () => {
  it('writes a scanned page\'s words beside the kept text layer of a mixed PDF, stored beside the original', async () => {
    const { deps, documents, files, upload } = await ocrPipeline(new TesseractOcrEngine(), { searchablePdf: writer });
    const document = await upload(await mixedPdf([{ text: ['Cover letter with an exact text layer'] }, { png: LINN }]));

    expect(await run(deps, document.id)).toBe('completed');

    const pdf = await files.get(fileKeys.searchablePdf(document.id));
    expect(pdf).not.toBeNull();
    expect(await documents.get(document.id)).toMatchObject({ status: 'completed', searchable_pdf_size: pdf!.byteLength });
    const [cover, scan] = await extractWords(pdf!);
    expect(cover!.words.map((word) => word.text).join(' ')).toBe('Cover letter with an exact text layer');
    const { text } = (await documents.getContent(document.id)) as { text: string };
    const scanned = text.split('\f')[1]!.split(/\s+/).filter(Boolean);
    expect(wordRecall(scanned, scan!.words.map((word) => word.text))).toBe(1);
    const download = await downloadSearchablePdf(deps, document.id);
    expect(download).toMatchObject({ kind: 'inline', mimeType: 'application/pdf' });
  }, 120_000);

  it('counts the PDF in the workspace\'s stored bytes, replaces it on a retry without counting it twice, and deletes it with the document', async () => {
    const { deps, container, files, upload, worker } = await ocrPipeline(new TesseractOcrEngine(), { searchablePdf: writer });
    const document = await upload(LINN, 'image/png');
    const stored = async () => (await container.usage.month(deps.workspaceId, monthOf(new Date()))).bytes_stored;
    const before = await stored();
    expect(await run(deps, document.id)).toBe('completed');
    const size = (await files.get(fileKeys.searchablePdf(document.id)))!.byteLength;
    expect(await stored()).toBe(before + size);

    await retryOcr({ ...deps, ocrLanguages: () => worker.engine.languages() }, document.id, { priority: 'normal', by: document.created_by });
    expect(await run(deps, document.id, 2)).toBe('completed');

    expect(await stored()).toBe(before + size);
    await deleteDocument(deps, document.id);
    expect(await files.get(fileKeys.searchablePdf(document.id))).toBeNull();
    expect(await stored()).toBe(before - LINN.byteLength);
  }, 120_000);

  it('writes a new PDF when OCR is retried', async () => {
    const { deps, files, upload, worker } = await ocrPipeline(new TesseractOcrEngine(), { searchablePdf: writer });
    const document = await upload(LINN, 'image/png');
    expect(await run(deps, document.id)).toBe('completed');
    // Gone from the bucket: only a new write can bring it back.
    await files.deletePrefix(fileKeys.searchablePdf(document.id));

    await retryOcr({ ...deps, ocrLanguages: () => worker.engine.languages() }, document.id, { priority: 'normal', by: document.created_by });
    expect(await run(deps, document.id, 2)).toBe('completed');

    const pdf = await files.get(fileKeys.searchablePdf(document.id));
    expect(pdf).not.toBeNull();
    expect((await extractWords(pdf!))[0]!.words.map((word) => word.text)).toContain('LinnSequencer');
  }, 120_000);

  it('writes none for a born-digital PDF, every page kept its layer: 404 no_ocred_pages', async () => {
    const { deps, files, upload } = await ocrPipeline(new TesseractOcrEngine(), { searchablePdf: writer });
    const document = await upload(textPdf([['Every page of this report has its own exact text layer']]));

    expect(await run(deps, document.id)).toBe('completed');

    expect(await files.get(fileKeys.searchablePdf(document.id))).toBeNull();
    expect(await missing(deps, document.id)).toMatchObject({ reason: 'no_ocred_pages' });
  }, 60_000);

  it('leaves the document completed with the reason when the PDF cannot be written within bounds', async () => {
    const small = new PoolSearchablePdfWriter({ poolOptions: { size: 1 }, maxPixels: 1000 });
    const { deps, documents, upload } = await ocrPipeline(new TesseractOcrEngine(), { searchablePdf: small });
    const document = await upload(LINN, 'image/png');

    expect(await run(deps, document.id)).toBe('completed');

    const record = await documents.get(document.id);
    expect(record).toMatchObject({ status: 'completed', searchable_pdf_reason: 'not_written' });
    expect(record?.searchable_pdf_message).toMatch(/megapixels/);
    const details = await missing(deps, document.id);
    expect(details).toMatchObject({ reason: 'not_written' });
    await small.close();
  }, 60_000);

  it('says the PDF is not written yet while OCR has not completed', async () => {
    const { deps, upload } = await ocrPipeline(new TesseractOcrEngine(), { searchablePdf: writer });
    const document = await upload(LINN, 'image/png');

    expect(await missing(deps, document.id)).toMatchObject({ reason: 'ocr_not_completed' });
  });

  it('forgets the PDF of a file a source sync replaced: no longer served nor counted', async () => {
    const { deps, container, documents, upload } = await ocrPipeline(new TesseractOcrEngine(), { searchablePdf: writer });
    const document = await upload(LINN, 'image/png');
    expect(await run(deps, document.id)).toBe('completed');
    const stored = async () => (await container.usage.month(deps.workspaceId, monthOf(new Date()))).bytes_stored;
    const before = await stored();
    const size = (await documents.get(document.id))!.searchable_pdf_size!;

    await documents.replaceFile(document.id, { size: 100, sha256: 'f'.repeat(64), mime_type: 'image/png' }, new Date().toISOString());

    expect((await documents.get(document.id))!.searchable_pdf_size).toBeUndefined();
    expect(await stored()).toBe(before - size - LINN.byteLength + 100);
  }, 60_000);
});

describe('OCR worker: the searchable PDF in the cloud (Textract\'s recorded answer)', () => {
  const textract = mockClient(TextractClient);
  afterEach(() => textract.reset());

  it('assembles a mixed PDF read page by page: the text page as it was, the scanned page with every WORD at its geometry', async () => {
    const recorded = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../../fixtures/textract/linn.png.json'), 'utf8')) as { DetectDocumentText: DetectDocumentTextCommandOutput };
    textract.on(DetectDocumentTextCommand).resolves(recorded.DetectDocumentText);
    const reader = new PdfTextLayerReader({ poolOptions: { size: 1 } });
    const engine = new TextractOcrEngine({ client: new TextractClient({ region: 'eu-west-1' }), bucket: 'documents', pagePdfs: (bytes, pages) => reader.pagePdfs(bytes, pages) });
    const { deps, files, upload } = await ocrPipeline(engine, { searchablePdf: writer });
    const document = await upload(await mixedPdf([{ text: ['Cover letter with an exact text layer'] }, { png: LINN }]));

    expect(await run({ ...deps, blankPages: reader }, document.id)).toBe('completed');

    const [cover, scan] = await extractWords((await files.get(fileKeys.searchablePdf(document.id)))!);
    expect(cover!.words.map((word) => word.text).join(' ')).toBe('Cover letter with an exact text layer');
    const textractWords = recorded.DetectDocumentText.Blocks!.filter((block) => block.BlockType === 'WORD');
    expect(wordRecall(textractWords.map((block) => block.Text!), scan!.words.map((word) => word.text))).toBe(1);
    const boxes = textractWords.map(({ Text, Geometry }) => {
      const { Left, Top, Width, Height } = Geometry!.BoundingBox!;
      return { text: Text!, left: Left!, top: Top!, width: Width!, height: Height! };
    });
    expect(Math.max(...placementErrors(boxes, scan!))).toBeLessThanOrEqual(0.02);
    await reader.close();
  }, 60_000);

  it('lays every WORD Textract returned at its geometry, within 2 % of the page', async () => {
    const recorded = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../../fixtures/textract/linn.png.json'), 'utf8')) as { DetectDocumentText: DetectDocumentTextCommandOutput };
    textract.on(DetectDocumentTextCommand).resolves(recorded.DetectDocumentText);
    const engine = new TextractOcrEngine({ client: new TextractClient({ region: 'eu-west-1' }), bucket: 'documents' });

    const output = await engine.recognize({ ...fileInput(LINN), mimeType: 'image/png', language: 'eng', objectKey: 'documents/linn' });
    const words = output.pageTexts![0]!.boxes!;
    const pdf = await writeSearchablePdf({ bytes: LINN, format: 'png', pages: [words], maxPages: 10, maxPixels: 1e8 });

    const textractWords = recorded.DetectDocumentText.Blocks!.filter((block) => block.BlockType === 'WORD').map((block) => block.Text!);
    expect(words.map((word) => word.text)).toEqual(textractWords);
    const [page] = await extractWords(pdf);
    expect(wordRecall(textractWords, page!.words.map((word) => word.text))).toBe(1);
    expect(Math.max(...placementErrors(words, page!))).toBeLessThanOrEqual(0.02);
  });
});
