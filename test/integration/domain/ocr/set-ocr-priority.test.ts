import { beforeAll, describe, expect, it } from 'vitest';
import { setOcrPriority } from '../../../../shared/domain/ocr/set-ocr-priority';
import { domainStores, refusalOf } from '../workspace-stores';
import { aQueuedDocument, claim } from './ocr-setup';

describe('setOcrPriority', () => {
  let stores: Awaited<ReturnType<typeof domainStores>>;

  beforeAll(async () => {
    stores = await domainStores();
  });

  it("moves a queued job to the high queue, sending its run there", async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = await aQueuedDocument(w);

    // Act
    const job = await setOcrPriority(w, document.id, 'high');

    // Assert
    expect(job).toMatchObject({ document_id: document.id, priority: 'high', status: 'queued' });
    expect(await w.ocrJobs.get(document.id)).toMatchObject({ priority: 'high' });
    expect(await stores.ocrMessages(w.workspaceId, 'high')).toEqual([{ workspace_id: w.workspaceId, document_id: document.id, run: 1, priority: 'high' }]);
  });

  it('refuses a job that has started with 409, naming its status, and sends nothing', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = await aQueuedDocument(w);
    await claim(w, document);

    // Act
    const refused = await refusalOf(setOcrPriority(w, document.id, 'high'));

    // Assert
    expect(refused).toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { resource: 'ocr_job', document_id: document.id, status: 'processing' } });
    expect(await stores.ocrMessages(w.workspaceId, 'high')).toEqual([]);
  });

  it('answers 404 for a document without a job', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const id = crypto.randomUUID();

    // Act
    const refused = await refusalOf(setOcrPriority(w, id, 'high'));

    // Assert
    expect(refused).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'OCR job', id } });
  });

  it("answers 404 for another workspace's job, leaving its priority", async () => {
    // Arrange
    const [owner, stranger] = [stores.inWorkspace(), stores.inWorkspace()];
    const document = await aQueuedDocument(owner);

    // Act
    const refused = await refusalOf(setOcrPriority(stranger, document.id, 'high'));

    // Assert
    expect(refused).toMatchObject({ code: 'NOT_FOUND' });
    expect((await owner.ocrJobs.get(document.id))?.priority).toBe('normal');
  });
});
