import { beforeAll, describe, expect, it } from 'vitest';
import { createLabel } from '../../../../shared/domain/labels/create-label';
import { deleteLabel } from '../../../../shared/domain/labels/delete-label';
import { aDocumentRecord } from '../../../support/builders';
import { domainStores, editorOf, refusalOf } from '../workspace-stores';

describe('deleteLabel', () => {
  let stores: Awaited<ReturnType<typeof domainStores>>;

  beforeAll(async () => {
    stores = await domainStores();
  });

  it('takes the label off every document that carried it, keeping their other labels', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const [gone, kept] = [
      await createLabel(w, editorOf(w.workspaceId), { name: 'Gone', color: '#000000' }),
      await createLabel(w, editorOf(w.workspaceId), { name: 'Kept', color: '#000000' }),
    ];
    const document = aDocumentRecord({ labels: [gone.id, kept.id] });
    await w.documents.create(document);

    // Act
    await deleteLabel(w, gone.id);

    // Assert
    expect(await w.labels.get(gone.id)).toBeNull();
    expect((await w.documents.get(document.id))?.labels).toEqual([kept.id]);
  });

  it('frees the name for a new label', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const label = await createLabel(w, editorOf(w.workspaceId), { name: 'Again', color: '#000000' });

    // Act
    await deleteLabel(w, label.id);

    // Assert
    await expect(createLabel(w, editorOf(w.workspaceId), { name: 'again', color: '#000000' })).resolves.toMatchObject({ name: 'again' });
  });

  it('answers 404 for a label that does not exist', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const id = crypto.randomUUID();

    // Act
    const refused = await refusalOf(deleteLabel(w, id));

    // Assert
    expect(refused).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'Label', id } });
  });

  it("answers 404 for another workspace's label and leaves it on its documents", async () => {
    // Arrange
    const [owner, stranger] = [stores.inWorkspace(), stores.inWorkspace()];
    const label = await createLabel(owner, editorOf(owner.workspaceId), { name: 'Private', color: '#000000' });
    const document = aDocumentRecord({ labels: [label.id] });
    await owner.documents.create(document);

    // Act
    const refused = await refusalOf(deleteLabel(stranger, label.id));

    // Assert
    expect(refused).toMatchObject({ code: 'NOT_FOUND' });
    expect((await owner.documents.get(document.id))?.labels).toEqual([label.id]);
  });
});
