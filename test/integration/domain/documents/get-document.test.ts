import { beforeAll, describe, expect, it } from 'vitest';
import { getDocument } from '../../../../shared/domain/documents/get-document';
import { fileKeys } from '../../../../shared/domain/files/file-keys';
import { domainStores, refusalOf } from '../workspace-stores';
import { aPendingUpload, aStoredDocument, completeOcr } from './document-setup';

describe('getDocument', () => {
  let stores: Awaited<ReturnType<typeof domainStores>>;

  beforeAll(async () => {
    stores = await domainStores();
  });

  it('gives the document with its extracted text and the pages by engine', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = await aStoredDocument(w);
    await completeOcr(w, document, { text: 'Dear customer' });

    // Act
    const view = await getDocument(w, document.id);

    // Assert
    expect(view).toMatchObject({ id: document.id, status: 'completed', content: 'Dear customer', pages_ocred_by_engine: { tesseract: 1 } });
    expect(view).not.toHaveProperty('created_by');
  });

  it('reads text too large for the table from its object', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = await aStoredDocument(w);
    await w.files.put(fileKeys.text(document.id), new TextEncoder().encode('a long text'), 'text/plain');
    await completeOcr(w, document, { text_object: fileKeys.text(document.id) });

    // Act
    const view = await getDocument(w, document.id);

    // Assert
    expect(view.content).toBe('a long text');
  });

  it('gives a document before OCR with empty text and no pages by engine', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = await aStoredDocument(w);

    // Act
    const view = await getDocument(w, document.id);

    // Assert
    expect(view).toMatchObject({ status: 'pending', content: '', pages_ocred_by_engine: null });
  });

  it('answers 404 for an unknown id', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const id = crypto.randomUUID();

    // Act
    const refused = await refusalOf(getDocument(w, id));

    // Assert
    expect(refused).toEqual({ code: 'NOT_FOUND', status: 404, message: 'Document not found', details: { resource: 'Document', id } });
  });

  it('says in its 404 that the file of an announced upload is still awaited, and until when', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const upload = aPendingUpload();
    await w.uploads.create(upload);

    // Act
    const refused = await refusalOf(getDocument(w, upload.id));

    // Assert
    expect(refused).toMatchObject({ code: 'NOT_FOUND', message: 'The file has not been uploaded yet', details: { id: upload.id, upload: { state: 'awaiting_file', expires_at: upload.expires_at } } });
  });

  it('says in its 404 why the file of an announced upload was refused', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const upload = aPendingUpload();
    await w.uploads.create(upload);
    await w.uploads.reject(upload.id, 'the file is empty (0 bytes)');

    // Act
    const refused = await refusalOf(getDocument(w, upload.id));

    // Assert
    expect(refused).toMatchObject({ message: 'The uploaded file was refused', details: { upload: { state: 'rejected', reason: 'the file is empty (0 bytes)' } } });
  });

  it("answers 404 for another workspace's document", async () => {
    // Arrange
    const [owner, stranger] = [stores.inWorkspace(), stores.inWorkspace()];
    const document = await aStoredDocument(owner);

    // Act
    const refused = await refusalOf(getDocument(stranger, document.id));

    // Assert
    expect(refused).toMatchObject({ code: 'NOT_FOUND', details: { id: document.id } });
  });
});
