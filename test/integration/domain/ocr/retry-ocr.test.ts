import { beforeAll, describe, expect, it } from 'vitest';
import { retryOcr } from '../../../../shared/domain/ocr/retry-ocr';
import { domainStores, refusalOf } from '../workspace-stores';
import { aQueuedDocument, completeRun } from './ocr-setup';

describe('retryOcr', () => {
  let stores: Awaited<ReturnType<typeof domainStores>>;

  beforeAll(async () => {
    stores = await domainStores();
  });

  it('starts a new run of a failed document in the languages asked for, and queues it', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = await aQueuedDocument(w);
    await w.ocrJobs.fail(document.id, 1, 'unreadable', new Date().toISOString());

    // Act
    const outcome = await retryOcr(w, document.id, { language: 'eng+deu', priority: 'normal', by: 'u-1' });

    // Assert
    expect(outcome).toEqual({ id: document.id, status: 'pending', priority: 'normal', language: 'eng+deu', message: 'OCR queued' });
    expect(await w.ocrJobs.get(document.id)).toMatchObject({ status: 'queued', run: 2, language: 'eng+deu' });
    expect(await w.documents.get(document.id)).toMatchObject({ status: 'pending' });
    expect(await stores.ocrMessages(w.workspaceId)).toEqual([{ workspace_id: w.workspaceId, document_id: document.id, run: 2, priority: 'normal' }]);
  });

  it('reads a completed document again on the high queue when asked', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = await aQueuedDocument(w);
    await completeRun(w, document, 1);

    // Act
    await retryOcr(w, document.id, { priority: 'high', language: 'eng', by: 'u-1' });

    // Assert
    expect(await stores.ocrMessages(w.workspaceId, 'high')).toEqual([expect.objectContaining({ document_id: document.id, run: 2, priority: 'high' })]);
  });

  it("reads in the caller's default OCR language when none is asked for", async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = await aQueuedDocument(w);
    await completeRun(w, document, 1);
    const userId = crypto.randomUUID();
    await w.settings.update(userId, { ocr_default_language: 'deu' }, new Date().toISOString());

    // Act
    const outcome = await retryOcr(w, document.id, { priority: 'normal', by: userId });

    // Assert
    expect(outcome.language).toBe('deu');
  });

  it('refuses while a run is queued, with 409 naming its status', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = await aQueuedDocument(w);

    // Act
    const refused = await refusalOf(retryOcr(w, document.id, { language: 'eng', priority: 'normal', by: 'u-1' }));

    // Assert
    expect(refused).toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { resource: 'ocr_job', document_id: document.id, status: 'queued' } });
  });

  it('refuses a language the engine does not have, before touching the job', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = await aQueuedDocument(w);
    await completeRun(w, document, 1);

    // Act
    const refused = await refusalOf(retryOcr(w, document.id, { language: 'xyz', priority: 'normal', by: 'u-1' }));

    // Assert
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'language' } });
    expect((await w.ocrJobs.get(document.id))?.run).toBe(1);
  });

  it("answers 404 for another workspace's document", async () => {
    // Arrange
    const [owner, stranger] = [stores.inWorkspace(), stores.inWorkspace()];
    const document = await aQueuedDocument(owner);
    await completeRun(owner, document, 1);

    // Act
    const refused = await refusalOf(retryOcr(stranger, document.id, { language: 'eng', priority: 'normal', by: 'u-1' }));

    // Assert
    expect(refused).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'Document', id: document.id } });
  });
});
