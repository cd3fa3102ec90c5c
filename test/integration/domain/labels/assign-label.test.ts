import { beforeAll, describe, expect, it } from 'vitest';
import { assignLabel } from '../../../../shared/domain/labels/assign-label';
import { createLabel } from '../../../../shared/domain/labels/create-label';
import { aDocumentRecord } from '../../../support/builders';
import { domainStores, editorOf, refusalOf } from '../workspace-stores';

describe('assignLabel', () => {
  let stores: Awaited<ReturnType<typeof domainStores>>;

  beforeAll(async () => {
    stores = await domainStores();
  });

  it('says per document whether the label was assigned, already there or unknown', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const label = await createLabel(w, editorOf(w.workspaceId), { name: 'Invoices', color: '#000000' });
    const [bare, carrying] = [aDocumentRecord(), aDocumentRecord({ labels: [label.id] })];
    await w.documents.create(bare);
    await w.documents.create(carrying);
    const unknown = crypto.randomUUID();

    // Act
    const outcome = await assignLabel(w, label.id, [bare.id, carrying.id, unknown]);

    // Assert
    expect(outcome).toEqual({ assigned: [bare.id], already_assigned: [carrying.id], not_found: [unknown] });
    expect((await w.documents.get(bare.id))?.labels).toEqual([label.id]);
  });

  it('counts a document named twice in one call once', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const label = await createLabel(w, editorOf(w.workspaceId), { name: 'Once', color: '#000000' });
    const document = aDocumentRecord();
    await w.documents.create(document);

    // Act
    const outcome = await assignLabel(w, label.id, [document.id, document.id]);

    // Assert
    expect(outcome.assigned).toEqual([document.id]);
    expect((await w.labels.get(label.id))?.document_count).toBe(1);
  });

  it("does not put a label on another workspace's document", async () => {
    // Arrange
    const [mine, theirs] = [stores.inWorkspace(), stores.inWorkspace()];
    const label = await createLabel(mine, editorOf(mine.workspaceId), { name: 'Mine', color: '#000000' });
    const document = aDocumentRecord();
    await theirs.documents.create(document);

    // Act
    const outcome = await assignLabel(mine, label.id, [document.id]);

    // Assert
    expect(outcome).toEqual({ assigned: [], already_assigned: [], not_found: [document.id] });
    expect((await theirs.documents.get(document.id))?.labels).toEqual([]);
  });

  it('answers 404 for a label that does not exist', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = aDocumentRecord();
    await w.documents.create(document);
    const id = crypto.randomUUID();

    // Act
    const refused = await refusalOf(assignLabel(w, id, [document.id]));

    // Assert
    expect(refused).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'Label', id } });
  });
});
