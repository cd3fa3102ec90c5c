import { beforeAll, describe, expect, it } from 'vitest';
import { createLabel } from '../../../../shared/domain/labels/create-label';
import { domainStores, editorOf, refusalOf } from '../workspace-stores';

describe('createLabel', () => {
  let stores: Awaited<ReturnType<typeof domainStores>>;

  beforeAll(async () => {
    stores = await domainStores();
  });

  it('stores a label with no documents, its colour in lower case, by its creator', async () => {
    // Arrange
    const w = stores.inWorkspace();

    // Act
    const label = await createLabel(w, editorOf(w.workspaceId, 'ada'), { name: 'Invoices', color: '#AABBCC' });

    // Assert
    expect(label).toMatchObject({ name: 'Invoices', color: '#aabbcc', description: null, document_count: 0, created_by: 'ada' });
    expect(await w.labels.get(label.id)).toEqual(label);
  });

  it('refuses a name another label has in any case, with 409 on name', async () => {
    // Arrange
    const w = stores.inWorkspace();
    await createLabel(w, editorOf(w.workspaceId), { name: 'Receipts', color: '#000000' });

    // Act
    const refused = await refusalOf(createLabel(w, editorOf(w.workspaceId), { name: 'RECEIPTS', color: '#111111' }));

    // Assert
    expect(refused).toMatchObject({ code: 'DUPLICATE_RESOURCE', status: 409, details: { resource: 'label', field: 'name' } });
    expect((await w.labels.list()).map((label) => label.name)).toEqual(['Receipts']);
  });

  it('lets another workspace use a name this workspace has', async () => {
    // Arrange
    const [one, other] = [stores.inWorkspace(), stores.inWorkspace()];
    await createLabel(one, editorOf(one.workspaceId), { name: 'Contracts', color: '#000000' });

    // Act
    const label = await createLabel(other, editorOf(other.workspaceId), { name: 'Contracts', color: '#000000' });

    // Assert
    expect((await other.labels.list()).map((stored) => stored.id)).toEqual([label.id]);
    expect(await one.labels.get(label.id)).toBeNull();
  });
});
