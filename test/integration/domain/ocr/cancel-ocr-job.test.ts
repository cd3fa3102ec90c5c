import { beforeAll, describe, expect, it } from 'vitest';
import { cancelOcrJob } from '../../../../shared/domain/ocr/cancel-ocr-job';
import { domainStores, refusalOf } from '../workspace-stores';
import { aQueuedDocument, claim, completeRun } from './ocr-setup';

describe('cancelOcrJob', () => {
  let stores: Awaited<ReturnType<typeof domainStores>>;

  beforeAll(async () => {
    stores = await domainStores();
  });

  it('cancels a queued job at once, ending its document failed with reason cancelled', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = await aQueuedDocument(w);

    // Act
    const outcome = await cancelOcrJob(w, document.id);

    // Assert
    expect(outcome).toEqual({ id: document.id, status: 'cancelled' });
    expect(await w.ocrJobs.get(document.id)).toMatchObject({ status: 'cancelled', failure_reason: 'cancelled' });
    expect(await w.documents.get(document.id)).toMatchObject({ status: 'failed', failure_reason: 'cancelled' });
  });

  it('asks the worker of a processing job to stop at its next page', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = await aQueuedDocument(w);
    await claim(w, document);

    // Act
    const outcome = await cancelOcrJob(w, document.id);

    // Assert
    expect(outcome).toEqual({ id: document.id, status: 'cancelling' });
    expect(await w.ocrJobs.get(document.id)).toMatchObject({ status: 'processing', cancel_requested: true });
  });

  it('refuses to cancel a finished job with 409, naming its status', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = await aQueuedDocument(w);
    await completeRun(w, document, 1);

    // Act
    const refused = await refusalOf(cancelOcrJob(w, document.id));

    // Assert
    expect(refused).toMatchObject({ code: 'DUPLICATE_RESOURCE', status: 409, details: { resource: 'ocr_job', document_id: document.id, status: 'completed' } });
  });

  it("answers 404 for another workspace's job, leaving it queued", async () => {
    // Arrange
    const [owner, stranger] = [stores.inWorkspace(), stores.inWorkspace()];
    const document = await aQueuedDocument(owner);

    // Act
    const refused = await refusalOf(cancelOcrJob(stranger, document.id));

    // Assert
    expect(refused).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'OCR job', id: document.id } });
    expect((await owner.ocrJobs.get(document.id))?.status).toBe('queued');
  });
});
