import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_DOCUMENT_BYTES } from '../../../../shared/domain/documents/document';
import { requestUploadUrl, UPLOAD_URL_SECONDS, type UploadUrlRequest } from '../../../../shared/domain/documents/request-upload-url';
import { fileKeys } from '../../../../shared/domain/files/file-keys';
import { createLabel } from '../../../../shared/domain/labels/create-label';
import { ManualClock } from '../../../support/builders';
import { textPdf } from '../../../support/text-pdf';
import { domainStores, editorOf, refusalOf } from '../workspace-stores';

/** An announced 10-byte PDF by "u-1", OCR on in English; override what the test is about. */
const aRequest = (overrides: Partial<UploadUrlRequest> = {}): UploadUrlRequest => ({
  filename: 'big.pdf',
  size: 10,
  labels: [],
  ocrEnabled: true,
  language: 'eng',
  createdBy: 'u-1',
  ...overrides,
});

describe('requestUploadUrl', () => {
  let stores: Awaited<ReturnType<typeof domainStores>>;

  beforeAll(async () => {
    stores = await domainStores();
  });

  it('grants a PUT to the staging key for an hour and records the upload as awaiting its file', async () => {
    // Arrange
    const clock = new ManualClock(new Date('2030-05-01T10:00:00.000Z'));
    const w = { ...stores.inWorkspace(), clock };

    // Act
    const grant = await requestUploadUrl(w, aRequest({ filename: 'scan.pdf', title: '  Annual report ' }));

    // Assert
    expect(grant).toEqual({ document_id: expect.any(String), upload_url: expect.any(String), method: 'PUT', headers: {}, max_size: MAX_DOCUMENT_BYTES, expires_at: '2030-05-01T11:00:00.000Z' });
    expect(new URL(grant.upload_url).searchParams.get('X-Amz-Expires')).toBe(String(UPLOAD_URL_SECONDS));
    expect(await w.uploads.get(grant.document_id)).toMatchObject({ filename: 'scan.pdf', title: 'Annual report', size: 10, state: 'awaiting_file', expires_at: grant.expires_at });
  });

  it('gives a URL that stores a body of the announced size at the staging key', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const bytes = textPdf([['Uploaded by URL']]);
    const grant = await requestUploadUrl(w, aRequest({ size: bytes.length }));

    // Act
    const response = await fetch(grant.upload_url, { method: 'PUT', body: bytes });

    // Assert
    expect(response.ok).toBe(true);
    expect(await w.files.get(fileKeys.staged(grant.document_id))).toEqual(new Uint8Array(bytes));
  });

  it('refuses labels that do not exist, recording no upload', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const ghost = crypto.randomUUID();

    // Act
    const refused = await refusalOf(requestUploadUrl(w, aRequest({ labels: [ghost] })));

    // Assert
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'labels', unknown_label_ids: [ghost] } });
  });

  it('refuses an OCR language the engine does not have', async () => {
    // Arrange
    const w = stores.inWorkspace();

    // Act
    const refused = await refusalOf(requestUploadUrl(w, aRequest({ language: 'klingon' })));

    // Assert
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'language' } });
  });

  it('records the labels to give the document once each', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const label = await createLabel(w, editorOf(w.workspaceId), { name: 'Big files', color: '#000000' });

    // Act
    const grant = await requestUploadUrl(w, aRequest({ labels: [label.id, label.id] }));

    // Assert
    expect((await w.uploads.get(grant.document_id))?.labels).toEqual([label.id]);
  });

  it('accepts any language when OCR is off', async () => {
    // Arrange
    const w = stores.inWorkspace();

    // Act
    const grant = await requestUploadUrl(w, aRequest({ ocrEnabled: false, language: 'klingon' }));

    // Assert
    expect(await w.uploads.get(grant.document_id)).toMatchObject({ ocr_enabled: false, language: 'klingon' });
  });
});
