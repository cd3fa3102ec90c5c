import { beforeAll, describe, expect, it } from 'vitest';
import { isWorkspaceEmpty } from '../../../../shared/domain/portability/workspace-emptiness';
import { aDocumentRecord, aSourceRecord, aUser } from '../../../support/builders';
import { aLabel, aRule, portabilityStores } from './portability-stores';

describe('isWorkspaceEmpty on DynamoDB Local', () => {
  let stores: Awaited<ReturnType<typeof portabilityStores>>;

  beforeAll(async () => {
    stores = await portabilityStores();
  });

  it('is empty for a new workspace', async () => {
    // Arrange
    const workspace = stores.inWorkspace();

    // Act
    const empty = await isWorkspaceEmpty(workspace);

    // Assert
    expect(empty).toBe(true);
  });

  it('stays empty with members: they are no content an import would write', async () => {
    // Arrange
    const workspace = stores.inWorkspace();
    await stores.users.create(aUser({ workspace_id: workspace.workspaceId }));

    // Act
    const empty = await isWorkspaceEmpty(workspace);

    // Assert
    expect(empty).toBe(true);
  });

  it.each([
    { holding: 'a document', add: (w: ReturnType<typeof stores.inWorkspace>) => w.documents.create(aDocumentRecord()) },
    { holding: 'a label', add: (w: ReturnType<typeof stores.inWorkspace>) => w.labels.create(aLabel()) },
    { holding: 'a source', add: (w: ReturnType<typeof stores.inWorkspace>) => w.sources.create(aSourceRecord()) },
    { holding: 'a rule', add: (w: ReturnType<typeof stores.inWorkspace>) => w.rules.create(aRule(), 100).then(() => undefined) },
  ])('is not empty while it holds $holding', async ({ add }) => {
    // Arrange
    const workspace = stores.inWorkspace();
    await add(workspace);

    // Act
    const empty = await isWorkspaceEmpty(workspace);

    // Assert
    expect(empty).toBe(false);
  });

  it('is empty although another workspace holds content', async () => {
    // Arrange
    const [full, fresh] = [stores.inWorkspace(), stores.inWorkspace()];
    await full.labels.create(aLabel());
    await full.documents.create(aDocumentRecord());

    // Act
    const empty = await isWorkspaceEmpty(fresh);

    // Assert
    expect(empty).toBe(true);
  });
});
