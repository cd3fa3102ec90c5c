import { beforeAll, describe, expect, it } from 'vitest';
import { registerDocument, uploadDocument, type UploadInput } from '../../../../shared/domain/documents/upload-document';
import { fileKeys } from '../../../../shared/domain/files/file-keys';
import { createLabel } from '../../../../shared/domain/labels/create-label';
import { createRule } from '../../../../shared/domain/rules/create-rule';
import { aDocumentRecord } from '../../../support/builders';
import { PNG } from '../../../support/minimal-files';
import { textPdf } from '../../../support/text-pdf';
import { domainStores, editorOf, refusalOf, type WorkspaceStores } from '../workspace-stores';

/** A PDF upload by "u-1", OCR on in English; override what the test is about. */
const anUpload = (overrides: Partial<UploadInput> = {}): UploadInput => ({
  filename: 'letter.pdf',
  bytes: textPdf([['A letter']]),
  labels: [],
  ocrEnabled: true,
  language: 'eng',
  createdBy: 'u-1',
  ...overrides,
});

/** Every document of the workspace, as the listing reads them. */
const documentsOf = async (w: WorkspaceStores) => (await w.documents.list({ page: 1, perPage: 50, sort: 'created_at', order: 'desc' })).data;

describe('uploadDocument', () => {
  let stores: Awaited<ReturnType<typeof domainStores>>;

  beforeAll(async () => {
    stores = await domainStores();
  });

  it('stores the file and a pending document, and queues its first OCR run', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const bytes = textPdf([['Quarterly report']]);

    // Act
    const result = await uploadDocument(w, anUpload({ filename: 'report.pdf', bytes }));

    // Assert
    expect(result).toEqual({ id: expect.any(String), message: 'Document uploaded; OCR queued', ocr_queued: true });
    expect(await w.documents.get(result.id)).toMatchObject({ title: 'report', status: 'pending', mime_type: 'application/pdf', size: bytes.length, sha256: w.sha256(bytes) });
    expect(await w.files.get(fileKeys.original(result.id))).toEqual(new Uint8Array(bytes));
    expect(await w.ocrJobs.get(result.id)).toMatchObject({ status: 'queued', run: 1, priority: 'normal', language: 'eng' });
    expect(await stores.ocrMessages(w.workspaceId)).toEqual([{ workspace_id: w.workspaceId, document_id: result.id, run: 1, priority: 'normal' }]);
  });

  it('stores a document without OCR completed at once, queueing nothing', async () => {
    // Arrange
    const w = stores.inWorkspace();

    // Act
    const result = await uploadDocument(w, anUpload({ ocrEnabled: false }));

    // Assert
    expect(result).toMatchObject({ message: 'Document uploaded', ocr_queued: false });
    expect(await w.documents.get(result.id)).toMatchObject({ status: 'completed', ocr_enabled: false });
    expect(await w.ocrJobs.get(result.id)).toBeNull();
    expect(await stores.ocrMessages(w.workspaceId)).toEqual([]);
  });

  it('takes the type from the bytes, not from the name', async () => {
    // Arrange
    const w = stores.inWorkspace();

    // Act
    const result = await uploadDocument(w, anUpload({ filename: 'photo.pdf', bytes: PNG, ocrEnabled: false }));

    // Assert
    expect((await w.documents.get(result.id))?.mime_type).toBe('image/png');
  });

  it('refuses a file of no supported type with 400 on file, storing nothing', async () => {
    // Arrange
    const w = stores.inWorkspace();

    // Act
    const refused = await refusalOf(uploadDocument(w, anUpload({ filename: 'tool.pdf', bytes: new TextEncoder().encode('MZ not a document') })));

    // Assert
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'file', reason: expect.stringContaining('application/pdf') } });
    expect(await documentsOf(w)).toEqual([]);
  });

  it('refuses an empty file with 400 on file', async () => {
    // Arrange
    const w = stores.inWorkspace();

    // Act
    const refused = await refusalOf(uploadDocument(w, anUpload({ bytes: new Uint8Array() })));

    // Assert
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'file', reason: 'is empty (0 bytes)' } });
  });

  it('refuses labels that do not exist, naming them, storing nothing', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const ghost = crypto.randomUUID();

    // Act
    const refused = await refusalOf(uploadDocument(w, anUpload({ labels: [ghost] })));

    // Assert
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'labels', unknown_label_ids: [ghost] } });
    expect(await documentsOf(w)).toEqual([]);
  });

  it('refuses an OCR language the engine does not have, with 400 on language', async () => {
    // Arrange
    const w = stores.inWorkspace();

    // Act
    const refused = await refusalOf(uploadDocument(w, anUpload({ language: 'eng+xyz' })));

    // Assert
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'language', reason: expect.stringContaining('not available: xyz') } });
  });

  it("reads in the uploader's default OCR language when none is asked for", async () => {
    // Arrange
    const w = stores.inWorkspace();
    const userId = crypto.randomUUID();
    await w.settings.update(userId, { ocr_default_language: 'deu' }, new Date().toISOString());

    // Act
    const result = await uploadDocument(w, anUpload({ createdBy: userId, language: undefined }));

    // Assert
    expect(await w.ocrJobs.get(result.id)).toMatchObject({ language: 'deu' });
  });

  it('puts the labels of the rules on its filename on the new document', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const label = await createLabel(w, editorOf(w.workspaceId), { name: 'Scans', color: '#000000' });
    await createRule(w, editorOf(w.workspaceId), {
      name: 'scans',
      match: { field: 'filename', algorithm: 'any', pattern: 'scan', case_sensitive: false },
      when: {},
      addLabels: [label.id],
      order: 0,
    });

    // Act
    const result = await uploadDocument(w, anUpload({ filename: 'scan 12.pdf', ocrEnabled: false }));

    // Assert
    expect((await w.documents.get(result.id))?.labels).toEqual([label.id]);
  });

  it('keeps a document whose OCR job could not be queued, pending for the stuck-job sweep', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const unreachable = { ...w, ocrQueue: { enqueue: () => Promise.reject(new Error('queue unavailable')) } };

    // Act
    const result = await uploadDocument(unreachable, anUpload());

    // Assert
    expect(result.ocr_queued).toBe(false);
    expect(await w.ocrJobs.get(result.id)).toMatchObject({ status: 'queued' });
  });

  it("stores the document in the uploader's workspace only", async () => {
    // Arrange
    const [mine, other] = [stores.inWorkspace(), stores.inWorkspace()];

    // Act
    const result = await uploadDocument(mine, anUpload({ ocrEnabled: false }));

    // Assert
    expect(await other.documents.get(result.id)).toBeNull();
    expect(await other.files.get(fileKeys.original(result.id))).toBeNull();
  });
});

describe('registerDocument', () => {
  let stores: Awaited<ReturnType<typeof domainStores>>;

  beforeAll(async () => {
    stores = await domainStores();
  });

  it('removes the stored files again when the record cannot be written', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = aDocumentRecord({ labels: [crypto.randomUUID()] });
    await w.files.put(fileKeys.original(document.id), textPdf([['orphan']]), 'application/pdf');

    // Act
    const refused = await refusalOf(registerDocument(w, document));

    // Assert
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(await w.files.get(fileKeys.original(document.id))).toBeNull();
  });
});

describe('the DocumentsIngested metric', () => {
  let stores: Awaited<ReturnType<typeof domainStores>>;

  beforeAll(async () => {
    stores = await domainStores();
  });

  it('counts one for each document an upload creates', async () => {
    // Arrange
    const w = stores.inWorkspace();

    // Act
    await uploadDocument(w, anUpload({ bytes: textPdf([['First']]), ocrEnabled: false }));
    await uploadDocument(w, anUpload({ bytes: textPdf([['Second']]), ocrEnabled: false }));

    // Assert
    expect(Object.fromEntries(w.metrics.counts)).toEqual({ DocumentsIngested: 2 });
  });

  it('counts nothing for an upload that is refused', async () => {
    // Arrange
    const w = stores.inWorkspace();

    // Act
    await uploadDocument(w, anUpload({ bytes: new TextEncoder().encode('not a document') })).catch(() => undefined);

    // Assert
    expect(w.metrics.counts.size).toBe(0);
  });
});
