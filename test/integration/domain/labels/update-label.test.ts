import { beforeAll, describe, expect, it } from 'vitest';
import { createLabel } from '../../../../shared/domain/labels/create-label';
import { updateLabel } from '../../../../shared/domain/labels/update-label';
import { aDocumentRecord } from '../../../support/builders';
import { domainStores, editorOf, refusalOf } from '../workspace-stores';

describe('updateLabel', () => {
  let stores: Awaited<ReturnType<typeof domainStores>>;

  beforeAll(async () => {
    stores = await domainStores();
  });

  it('renames a label and stores its new colour in lower case', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const label = await createLabel(w, editorOf(w.workspaceId), { name: 'Bills', color: '#000000' });

    // Act
    const changed = await updateLabel(w, label.id, { name: 'Invoices', color: '#ABCDEF' });

    // Assert
    expect(changed).toMatchObject({ id: label.id, name: 'Invoices', color: '#abcdef' });
    expect(await w.labels.get(label.id)).toMatchObject({ name: 'Invoices', color: '#abcdef' });
  });

  it('moves the version of each document carrying a renamed label, so that the index takes the new name', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const label = await createLabel(w, editorOf(w.workspaceId), { name: 'Old name', color: '#000000' });
    const document = aDocumentRecord({ labels: [label.id] });
    await w.documents.create(document);
    const before = (await w.documents.get(document.id))!.version!;

    // Act
    await updateLabel(w, label.id, { name: 'New name' });

    // Assert
    expect((await w.documents.get(document.id))!.version).toBeGreaterThan(before);
  });

  it('refuses a name another label of the workspace has, with 409', async () => {
    // Arrange
    const w = stores.inWorkspace();
    await createLabel(w, editorOf(w.workspaceId), { name: 'Taken', color: '#000000' });
    const label = await createLabel(w, editorOf(w.workspaceId), { name: 'Free', color: '#000000' });

    // Act
    const refused = await refusalOf(updateLabel(w, label.id, { name: 'taken' }));

    // Assert
    expect(refused).toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { field: 'name' } });
    expect((await w.labels.get(label.id))?.name).toBe('Free');
  });

  it("answers 404 for another workspace's label, leaving it as it was", async () => {
    // Arrange
    const [owner, stranger] = [stores.inWorkspace(), stores.inWorkspace()];
    const label = await createLabel(owner, editorOf(owner.workspaceId), { name: 'Private', color: '#000000' });

    // Act
    const refused = await refusalOf(updateLabel(stranger, label.id, { name: 'Mine now' }));

    // Assert
    expect(refused).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'Label', id: label.id } });
    expect((await owner.labels.get(label.id))?.name).toBe('Private');
  });
});
