import { beforeAll, describe, expect, it } from 'vitest';
import { createLabel } from '../../../../shared/domain/labels/create-label';
import { requireLabels } from '../../../../shared/domain/labels/require-labels';
import { domainStores, editorOf, refusalOf } from '../workspace-stores';

describe('requireLabels', () => {
  let stores: Awaited<ReturnType<typeof domainStores>>;

  beforeAll(async () => {
    stores = await domainStores();
  });

  it('lets labels of the workspace through', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const label = await createLabel(w, editorOf(w.workspaceId), { name: 'Known', color: '#000000' });

    // Act
    const outcome = await refusalOf(requireLabels(w.labels, [label.id, label.id]));

    // Assert
    expect(outcome).toBeNull();
  });

  it('refuses unknown ids with 400 on labels, naming each once', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const label = await createLabel(w, editorOf(w.workspaceId), { name: 'Known', color: '#000000' });
    const ghost = crypto.randomUUID();

    // Act
    const refused = await refusalOf(requireLabels(w.labels, [label.id, ghost, ghost]));

    // Assert
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', status: 400, details: { field: 'labels', unknown_label_ids: [ghost] } });
  });

  it("refuses another workspace's label as unknown", async () => {
    // Arrange
    const [mine, theirs] = [stores.inWorkspace(), stores.inWorkspace()];
    const label = await createLabel(theirs, editorOf(theirs.workspaceId), { name: 'Theirs', color: '#000000' });

    // Act
    const refused = await refusalOf(requireLabels(mine.labels, [label.id]));

    // Assert
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { unknown_label_ids: [label.id] } });
  });
});
