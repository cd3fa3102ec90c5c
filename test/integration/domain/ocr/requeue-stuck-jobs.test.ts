import { beforeAll, describe, expect, it } from 'vitest';
import { requeueStuckJobs } from '../../../../shared/domain/ocr/requeue-stuck-jobs';
import { ManualClock } from '../../../support/builders';
import { domainStores, type WorkspaceStores } from '../workspace-stores';
import { aQueuedDocument, claim } from './ocr-setup';

describe('requeueStuckJobs', () => {
  let stores: Awaited<ReturnType<typeof domainStores>>;

  beforeAll(async () => {
    stores = await domainStores();
  });

  /** A workspace stored in the table, as the sweep lists them. */
  const storedWorkspace = async (): Promise<WorkspaceStores> => {
    const w = stores.inWorkspace();
    await stores.workspaces.create({ id: w.workspaceId, name: 'OCR', created_at: new Date().toISOString() });
    return w;
  };

  /** The sweep an hour from now, with both bounds at ten minutes. */
  const sweep = (options: { orphaned?: boolean } = {}) =>
    requeueStuckJobs({
      workspaces: stores.workspaces,
      forWorkspace: (workspaceId) => stores.inWorkspace(workspaceId),
      clock: new ManualClock(new Date(Date.now() + 3_600_000)),
      queuedForSeconds: 600,
      silentForSeconds: 600,
      ...options,
    });

  it('sends again a job queued too long, whose message was lost', async () => {
    // Arrange
    const w = await storedWorkspace();
    const document = await aQueuedDocument(w);

    // Act
    await sweep();

    // Assert
    expect(await stores.ocrMessages(w.workspaceId)).toEqual([{ workspace_id: w.workspaceId, document_id: document.id, run: 1, priority: 'normal' }]);
  });

  it('sends again a processing job whose worker went silent, leaving it for the next claim', async () => {
    // Arrange
    const w = await storedWorkspace();
    const document = await aQueuedDocument(w);
    await claim(w, document);

    // Act
    await sweep();

    // Assert
    expect(await stores.ocrMessages(w.workspaceId)).toEqual([expect.objectContaining({ document_id: document.id })]);
    expect((await w.ocrJobs.get(document.id))?.status).toBe('processing');
  });

  it('releases the processing jobs of a runtime that just started before sending them again', async () => {
    // Arrange
    const w = await storedWorkspace();
    const document = await aQueuedDocument(w);
    await claim(w, document);

    // Act
    await sweep({ orphaned: true });

    // Assert
    expect((await w.ocrJobs.get(document.id))?.status).toBe('queued');
    expect(await stores.ocrMessages(w.workspaceId)).toHaveLength(1);
  });

  it('leaves alone a job queued within the bound', async () => {
    // Arrange
    const w = await storedWorkspace();
    await aQueuedDocument(w, { queuedAt: new Date(Date.now() + 3_300_000).toISOString() });

    // Act
    await sweep();

    // Assert
    expect(await stores.ocrMessages(w.workspaceId)).toEqual([]);
  });

  it('counts the jobs it sent again in every workspace', async () => {
    // Arrange
    const own = await domainStores();
    const [one, two] = [own.inWorkspace(), own.inWorkspace()];
    for (const w of [one, two]) await own.workspaces.create({ id: w.workspaceId, name: 'OCR', created_at: new Date().toISOString() });
    await aQueuedDocument(one);
    await aQueuedDocument(two);
    await aQueuedDocument(two);

    // Act
    const requeued = await requeueStuckJobs({
      workspaces: own.workspaces,
      forWorkspace: (workspaceId) => own.inWorkspace(workspaceId),
      clock: new ManualClock(new Date(Date.now() + 3_600_000)),
      queuedForSeconds: 600,
      silentForSeconds: 600,
    });

    // Assert
    expect(requeued).toBe(3);
    expect([(await own.ocrMessages(one.workspaceId)).length, (await own.ocrMessages(two.workspaceId)).length]).toEqual([1, 2]);
  });
});
