import { beforeAll, describe, expect, it } from 'vitest';
import { downloadDocument, INLINE_DOWNLOAD_LIMIT } from '../../../../shared/domain/documents/download-document';
import { fileKeys } from '../../../../shared/domain/files/file-keys';
import { textPdf } from '../../../support/text-pdf';
import { domainStores, refusalOf } from '../workspace-stores';
import { aStoredDocument } from './document-setup';

describe('downloadDocument', () => {
  let stores: Awaited<ReturnType<typeof domainStores>>;

  beforeAll(async () => {
    stores = await domainStores();
  });

  it('gives the bytes of a small original with its name and type', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const bytes = textPdf([['Small']]);
    const document = await aStoredDocument(w, { filename: 'small.pdf', size: bytes.length });
    await w.files.put(fileKeys.original(document.id), bytes, 'application/pdf');

    // Act
    const download = await downloadDocument(w, document.id);

    // Assert
    expect(download).toEqual({ kind: 'inline', bytes: new Uint8Array(bytes), filename: 'small.pdf', mimeType: 'application/pdf' });
  });

  it('redirects to a short-lived URL of the stored object for an original above the inline limit', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = await aStoredDocument(w, { filename: 'large.pdf', size: INLINE_DOWNLOAD_LIMIT + 1 });

    // Act
    const download = await downloadDocument(w, document.id);

    // Assert
    expect(download.kind).toBe('redirect');
    const url = new URL((download as { url: string }).url);
    expect(url.pathname).toContain(`${w.workspaceId}/${fileKeys.original(document.id)}`);
    expect(url.searchParams.get('X-Amz-Expires')).not.toBeNull();
  });

  it('answers 404 on the document file when the record is there but its file is not', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = await aStoredDocument(w);

    // Act
    const refused = await refusalOf(downloadDocument(w, document.id));

    // Assert
    expect(refused).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'Document file', id: document.id } });
  });

  it("answers 404 for another workspace's document", async () => {
    // Arrange
    const [owner, stranger] = [stores.inWorkspace(), stores.inWorkspace()];
    const document = await aStoredDocument(owner);
    await owner.files.put(fileKeys.original(document.id), textPdf([['Private']]), 'application/pdf');

    // Act
    const refused = await refusalOf(downloadDocument(stranger, document.id));

    // Assert
    expect(refused).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'Document', id: document.id } });
  });
});
