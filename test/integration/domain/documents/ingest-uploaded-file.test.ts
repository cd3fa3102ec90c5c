import { beforeAll, describe, expect, it } from 'vitest';
import { ingestUploadedFile } from '../../../../shared/domain/documents/ingest-uploaded-file';
import { fileKeys } from '../../../../shared/domain/files/file-keys';
import { createLabel } from '../../../../shared/domain/labels/create-label';
import { deleteLabel } from '../../../../shared/domain/labels/delete-label';
import { textPdf } from '../../../support/text-pdf';
import { domainStores, editorOf, type WorkspaceStores } from '../workspace-stores';
import { aPendingUpload } from './document-setup';

describe('ingestUploadedFile', () => {
  let stores: Awaited<ReturnType<typeof domainStores>>;

  beforeAll(async () => {
    stores = await domainStores();
  });

  /** An announced upload whose file `bytes` has landed at its staging key. */
  const landed = async (w: WorkspaceStores, bytes: Uint8Array, upload: Partial<Parameters<typeof aPendingUpload>[0]> = {}) => {
    const pending = aPendingUpload({ size: bytes.length, ...upload });
    await w.uploads.create(pending);
    await w.files.put(fileKeys.staged(pending.id), bytes, 'application/octet-stream');
    return pending;
  };

  it('makes the staged file a document under the announced id, moves the file and queues OCR', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const bytes = textPdf([['Announced']]);
    const pending = await landed(w, bytes, { filename: 'announced.pdf', title: 'Announced' });

    // Act
    const outcome = await ingestUploadedFile(w, fileKeys.staged(pending.id));

    // Assert
    expect(outcome).toBe('created');
    expect(await w.documents.get(pending.id)).toMatchObject({ title: 'Announced', mime_type: 'application/pdf', size: bytes.length, sha256: w.sha256(bytes), status: 'pending' });
    expect(await w.files.get(fileKeys.original(pending.id))).toEqual(new Uint8Array(bytes));
    expect(await w.files.get(fileKeys.staged(pending.id))).toBeNull();
    expect(await w.uploads.get(pending.id)).toBeNull();
    expect(await stores.ocrMessages(w.workspaceId)).toEqual([expect.objectContaining({ document_id: pending.id, run: 1 })]);
  });

  it('refuses a file of another size than announced, deleting it and keeping the reason for the client', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const bytes = textPdf([['Too long']]);
    const pending = await landed(w, bytes, { size: bytes.length - 1 });

    // Act
    const outcome = await ingestUploadedFile(w, fileKeys.staged(pending.id));

    // Assert
    expect(outcome).toBe('rejected');
    expect(await w.uploads.get(pending.id)).toMatchObject({ state: 'rejected', reason: `the file has ${bytes.length} bytes, not the ${bytes.length - 1} announced` });
    expect(await w.files.get(fileKeys.staged(pending.id))).toBeNull();
    expect(await w.documents.get(pending.id)).toBeNull();
  });

  it('refuses a file of no supported type', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const pending = await landed(w, new TextEncoder().encode('#!/bin/sh\necho not a document'));

    // Act
    const outcome = await ingestUploadedFile(w, fileKeys.staged(pending.id));

    // Assert
    expect(outcome).toBe('rejected');
    expect((await w.uploads.get(pending.id))?.reason).toMatch(/^content is not one of application\/pdf/);
  });

  it('ignores the same storage event delivered twice, creating one document', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const pending = await landed(w, textPdf([['Twice']]));
    await ingestUploadedFile(w, fileKeys.staged(pending.id));

    // Act
    const again = await ingestUploadedFile(w, fileKeys.staged(pending.id));

    // Assert
    expect(again).toBe('ignored');
    expect((await w.documents.list({ page: 1, perPage: 10, sort: 'created_at', order: 'desc' })).pagination.total).toBe(1);
  });

  it('deletes a staged file nobody announced, ignoring it', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const id = crypto.randomUUID();
    await w.files.put(fileKeys.staged(id), textPdf([['Unannounced']]), 'application/pdf');

    // Act
    const outcome = await ingestUploadedFile(w, fileKeys.staged(id));

    // Assert
    expect(outcome).toBe('ignored');
    expect(await w.files.get(fileKeys.staged(id))).toBeNull();
  });

  it('ignores a key that is not a staged upload', async () => {
    // Arrange
    const w = stores.inWorkspace();

    // Act
    const outcome = await ingestUploadedFile(w, fileKeys.original(crypto.randomUUID()));

    // Assert
    expect(outcome).toBe('ignored');
  });

  it('drops labels deleted while the file was on its way, keeping the others', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const [kept, gone] = [
      await createLabel(w, editorOf(w.workspaceId), { name: 'Kept', color: '#000000' }),
      await createLabel(w, editorOf(w.workspaceId), { name: 'Gone', color: '#000000' }),
    ];
    const pending = await landed(w, textPdf([['Labelled']]), { labels: [kept.id, gone.id] });
    await deleteLabel(w, gone.id);

    // Act
    await ingestUploadedFile(w, fileKeys.staged(pending.id));

    // Assert
    expect((await w.documents.get(pending.id))?.labels).toEqual([kept.id]);
  });
});
