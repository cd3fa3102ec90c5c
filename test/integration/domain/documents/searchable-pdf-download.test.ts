import { beforeAll, describe, expect, it } from 'vitest';
import { INLINE_DOWNLOAD_LIMIT } from '../../../../shared/domain/documents/download-document';
import { downloadSearchablePdf } from '../../../../shared/domain/documents/searchable-pdf-download';
import { fileKeys } from '../../../../shared/domain/files/file-keys';
import { textPdf } from '../../../support/text-pdf';
import { domainStores, refusalOf, type WorkspaceStores } from '../workspace-stores';
import { aStoredDocument, completeOcr } from './document-setup';

describe('downloadSearchablePdf', () => {
  let stores: Awaited<ReturnType<typeof domainStores>>;

  beforeAll(async () => {
    stores = await domainStores();
  });

  /** A document whose OCR completed and left `state` of its searchable PDF. */
  const completed = async (w: WorkspaceStores, filename: string, state: Parameters<WorkspaceStores['ocrJobs']['recordSearchablePdf']>[2]) => {
    const document = await aStoredDocument(w, { filename });
    await completeOcr(w, document, { text: 'read' });
    await w.ocrJobs.recordSearchablePdf(document.id, document.sha256, state, new Date().toISOString());
    return document;
  };

  it('gives the bytes of a small searchable PDF, named after the original', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const pdf = textPdf([['Searchable']]);
    const document = await completed(w, 'scan.png', { size: pdf.length });
    await w.files.put(fileKeys.searchablePdf(document.id), pdf, 'application/pdf');

    // Act
    const download = await downloadSearchablePdf(w, document.id);

    // Assert
    expect(download).toEqual({ kind: 'inline', bytes: new Uint8Array(pdf), filename: 'scan.searchable.pdf', mimeType: 'application/pdf' });
  });

  it('redirects to a short-lived URL for a searchable PDF above the inline limit', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = await completed(w, 'book.pdf', { size: INLINE_DOWNLOAD_LIMIT + 1 });

    // Act
    const download = await downloadSearchablePdf(w, document.id);

    // Assert
    expect(download.kind).toBe('redirect');
    expect((download as { url: string }).url).toContain(fileKeys.searchablePdf(document.id));
  });

  it('answers 404 ocr_not_completed while OCR has not completed', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = await aStoredDocument(w);

    // Act
    const refused = await refusalOf(downloadSearchablePdf(w, document.id));

    // Assert
    expect(refused).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'Searchable PDF', id: document.id, reason: 'ocr_not_completed' } });
  });

  it('answers 404 ocr_disabled for a document stored without OCR', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = await aStoredDocument(w, { ocr_enabled: false, status: 'completed' });

    // Act
    const refused = await refusalOf(downloadSearchablePdf(w, document.id));

    // Assert
    expect(refused).toMatchObject({ details: { reason: 'ocr_disabled' } });
  });

  it('answers 404 ocr_failed for a document whose OCR failed', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = await aStoredDocument(w);
    await w.ocrJobs.fail(document.id, 1, 'unreadable', new Date().toISOString());

    // Act
    const refused = await refusalOf(downloadSearchablePdf(w, document.id));

    // Assert
    expect(refused).toMatchObject({ details: { reason: 'ocr_failed' } });
  });

  it('answers 404 with the reason and message the worker recorded when it wrote none', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = await completed(w, 'born-digital.pdf', { reason: 'no_ocred_pages', message: 'Every page kept its own text' });

    // Act
    const refused = await refusalOf(downloadSearchablePdf(w, document.id));

    // Assert
    expect(refused).toMatchObject({ message: 'Every page kept its own text', details: { reason: 'no_ocred_pages' } });
  });

  it('answers 404 not_written_yet for a completed document the worker has not recorded a PDF for', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = await aStoredDocument(w);
    await completeOcr(w, document, { text: 'read' });

    // Act
    const refused = await refusalOf(downloadSearchablePdf(w, document.id));

    // Assert
    expect(refused).toMatchObject({ details: { reason: 'not_written_yet' } });
  });

  it('answers 404 on the document for an unknown id', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const id = crypto.randomUUID();

    // Act
    const refused = await refusalOf(downloadSearchablePdf(w, id));

    // Assert
    expect(refused).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'Document', id } });
  });
});
