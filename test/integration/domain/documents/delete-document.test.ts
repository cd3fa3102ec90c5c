import { beforeAll, describe, expect, it } from 'vitest';
import { deleteDocument } from '../../../../shared/domain/documents/delete-document';
import { fileKeys } from '../../../../shared/domain/files/file-keys';
import { createLabel } from '../../../../shared/domain/labels/create-label';
import { PNG } from '../../../support/minimal-files';
import { domainStores, editorOf, refusalOf } from '../workspace-stores';
import { aStoredDocument } from './document-setup';

describe('deleteDocument', () => {
  let stores: Awaited<ReturnType<typeof domainStores>>;

  beforeAll(async () => {
    stores = await domainStores();
  });

  it('removes the record, its OCR job and every file of the document', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = await aStoredDocument(w);
    await w.files.put(fileKeys.original(document.id), PNG, 'image/png');
    await w.files.put(fileKeys.thumbnail(document.id, 200, 200), PNG, 'image/png');

    // Act
    await deleteDocument(w, document.id);

    // Assert
    expect(await w.documents.get(document.id)).toBeNull();
    expect(await w.ocrJobs.get(document.id)).toBeNull();
    expect([await w.files.get(fileKeys.original(document.id)), await w.files.get(fileKeys.thumbnail(document.id, 200, 200))]).toEqual([null, null]);
  });

  it('takes the document out of the counts of its labels', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const label = await createLabel(w, editorOf(w.workspaceId), { name: 'Counted', color: '#000000' });
    const document = await aStoredDocument(w, { labels: [label.id] });

    // Act
    await deleteDocument(w, document.id);

    // Assert
    expect((await w.labels.get(label.id))?.document_count).toBe(0);
  });

  it('answers 404 for an unknown id', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const id = crypto.randomUUID();

    // Act
    const refused = await refusalOf(deleteDocument(w, id));

    // Assert
    expect(refused).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'Document', id } });
  });

  it("answers 404 for another workspace's document and keeps it and its file", async () => {
    // Arrange
    const [owner, stranger] = [stores.inWorkspace(), stores.inWorkspace()];
    const document = await aStoredDocument(owner);
    await owner.files.put(fileKeys.original(document.id), PNG, 'image/png');

    // Act
    const refused = await refusalOf(deleteDocument(stranger, document.id));

    // Assert
    expect(refused).toMatchObject({ code: 'NOT_FOUND' });
    expect(await owner.documents.get(document.id)).not.toBeNull();
    expect(await owner.files.get(fileKeys.original(document.id))).toEqual(PNG);
  });
});
