import { beforeAll, describe, expect, it } from 'vitest';
import { updateDocument } from '../../../../shared/domain/documents/update-document';
import { createLabel } from '../../../../shared/domain/labels/create-label';
import { domainStores, editorOf, refusalOf } from '../workspace-stores';
import { aStoredDocument } from './document-setup';

describe('updateDocument', () => {
  let stores: Awaited<ReturnType<typeof domainStores>>;

  beforeAll(async () => {
    stores = await domainStores();
  });

  it('changes title and metadata and answers the summary without text', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = await aStoredDocument(w, { title: 'Before' });

    // Act
    const summary = await updateDocument(w, document.id, { title: 'After', metadata: { year: 2026 } });

    // Assert
    expect(summary).toMatchObject({ id: document.id, title: 'After', metadata: { year: 2026 } });
    expect(summary).not.toHaveProperty('content');
    expect(await w.documents.get(document.id)).toMatchObject({ title: 'After', metadata: { year: 2026 } });
  });

  it('replaces the labels, each once, and moves the label counts with them', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const [old, fresh] = [
      await createLabel(w, editorOf(w.workspaceId), { name: 'Old', color: '#000000' }),
      await createLabel(w, editorOf(w.workspaceId), { name: 'Fresh', color: '#000000' }),
    ];
    const document = await aStoredDocument(w, { labels: [old.id] });

    // Act
    const summary = await updateDocument(w, document.id, { labels: [fresh.id, fresh.id] });

    // Assert
    expect(summary.labels).toEqual([fresh.id]);
    expect([(await w.labels.get(old.id))?.document_count, (await w.labels.get(fresh.id))?.document_count]).toEqual([0, 1]);
  });

  it('stores a title without control or bidirectional formatting characters', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = await aStoredDocument(w);

    // Act
    const summary = await updateDocument(w, document.id, { title: '  Invoice\u202Efdp.exe\u0007 ' });

    // Assert
    expect(summary.title).toBe('Invoicefdp.exe');
  });

  it('refuses a title of only control characters with 400 on title', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = await aStoredDocument(w, { title: 'Kept' });

    // Act
    const refused = await refusalOf(updateDocument(w, document.id, { title: '\u200F\u0000 ' }));

    // Assert
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'title' } });
    expect((await w.documents.get(document.id))?.title).toBe('Kept');
  });

  it('refuses labels that do not exist, changing nothing', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = await aStoredDocument(w, { title: 'Kept' });
    const ghost = crypto.randomUUID();

    // Act
    const refused = await refusalOf(updateDocument(w, document.id, { title: 'Changed', labels: [ghost] }));

    // Assert
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'labels', unknown_label_ids: [ghost] } });
    expect((await w.documents.get(document.id))?.title).toBe('Kept');
  });

  it("answers 404 for another workspace's document, leaving it as it was", async () => {
    // Arrange
    const [owner, stranger] = [stores.inWorkspace(), stores.inWorkspace()];
    const document = await aStoredDocument(owner, { title: 'Private' });

    // Act
    const refused = await refusalOf(updateDocument(stranger, document.id, { title: 'Mine' }));

    // Assert
    expect(refused).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'Document', id: document.id } });
    expect((await owner.documents.get(document.id))?.title).toBe('Private');
  });
});
