import { beforeAll, describe, expect, it } from 'vitest';
import { listOcrQueue } from '../../../../shared/domain/ocr/list-ocr-queue';
import { domainStores } from '../workspace-stores';
import { aQueuedDocument, claim } from './ocr-setup';

describe('listOcrQueue', () => {
  let stores: Awaited<ReturnType<typeof domainStores>>;

  beforeAll(async () => {
    stores = await domainStores();
  });

  it("lists the workspace's jobs of a status", async () => {
    // Arrange
    const w = stores.inWorkspace();
    const [queued, processing] = [await aQueuedDocument(w), await aQueuedDocument(w)];
    await claim(w, processing);

    // Act
    const page = await listOcrQueue(w, { page: 1, perPage: 20, status: 'queued' });

    // Assert
    expect(page.data.map((job) => job.document_id)).toEqual([queued.id]);
    expect(page.pagination.total).toBe(1);
  });

  it('lists the jobs of a priority', async () => {
    // Arrange
    const w = stores.inWorkspace();
    await aQueuedDocument(w);
    const urgent = await aQueuedDocument(w, { priority: 'high' });

    // Act
    const page = await listOcrQueue(w, { page: 1, perPage: 20, priority: 'high' });

    // Assert
    expect(page.data.map((job) => job.document_id)).toEqual([urgent.id]);
  });

  it("lists none of another workspace's jobs", async () => {
    // Arrange
    const [mine, theirs] = [stores.inWorkspace(), stores.inWorkspace()];
    await aQueuedDocument(theirs);

    // Act
    const page = await listOcrQueue(mine, { page: 1, perPage: 20 });

    // Assert
    expect(page.pagination.total).toBe(0);
  });
});
