import { beforeAll, describe, expect, it } from 'vitest';
import { createLabel } from '../../../../shared/domain/labels/create-label';
import { listLabels } from '../../../../shared/domain/labels/list-labels';
import { domainStores, editorOf } from '../workspace-stores';

describe('listLabels', () => {
  let stores: Awaited<ReturnType<typeof domainStores>>;

  beforeAll(async () => {
    stores = await domainStores();
  });

  it("lists the workspace's labels by name", async () => {
    // Arrange
    const w = stores.inWorkspace();
    for (const name of ['Taxes', 'Bills', 'Letters']) await createLabel(w, editorOf(w.workspaceId), { name, color: '#000000' });

    // Act
    const { labels } = await listLabels(w);

    // Assert
    expect(labels.map((label) => label.name)).toEqual(['Bills', 'Letters', 'Taxes']);
  });

  it("leaves out another workspace's labels", async () => {
    // Arrange
    const [mine, theirs] = [stores.inWorkspace(), stores.inWorkspace()];
    await createLabel(theirs, editorOf(theirs.workspaceId), { name: 'Theirs', color: '#000000' });

    // Act
    const { labels } = await listLabels(mine);

    // Assert
    expect(labels).toEqual([]);
  });
});
