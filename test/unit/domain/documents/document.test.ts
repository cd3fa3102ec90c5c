import { describe, expect, it } from 'vitest';
import { stagedUploadId, toSummary } from '../../../../shared/domain/documents/document';
import { aDocumentRecord } from '../../../support/builders';

describe('toSummary', () => {
  it('leaves out what a list row never shows: OCR switch, creator, version and searchable PDF state', () => {
    // Arrange
    const record = aDocumentRecord({ status: 'completed', version: 4, pages_ocred_by_engine: { tesseract: 1 }, searchable_pdf_size: 10 });

    // Act
    const summary = toSummary(record);

    // Assert
    for (const field of ['ocr_enabled', 'created_by', 'version', 'pages_ocred_by_engine', 'searchable_pdf_size', 'failure_reason']) expect(summary).not.toHaveProperty(field);
    expect(summary).toMatchObject({ id: record.id, title: record.title, status: 'completed' });
  });

  it('shows why a failed document failed', () => {
    // Arrange
    const record = aDocumentRecord({ status: 'failed', failure_reason: 'encrypted' });

    // Act
    const summary = toSummary(record);

    // Assert
    expect(summary.failure_reason).toBe('encrypted');
  });
});

describe('stagedUploadId', () => {
  it('reads the document id of a staged upload key', () => {
    // Arrange
    const id = crypto.randomUUID();

    // Act
    const read = stagedUploadId(`uploads/${id}`);

    // Assert
    expect(read).toBe(id);
  });

  it('answers null for a key outside staging, or one that is not an id', () => {
    // Act
    const read = [stagedUploadId(`documents/${crypto.randomUUID()}/original`), stagedUploadId('uploads/../secret'), stagedUploadId(`uploads/${crypto.randomUUID().toUpperCase()}`)];

    // Assert
    expect(read).toEqual([null, null, null]);
  });
});
