import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBucket } from '../../../../shared/adapters/aws/provisioning';
import { S3FileStore } from '../../../../shared/adapters/aws/s3/file-store';
import { PoolSearchablePdfWriter } from '../../../../shared/adapters/pdf/pool-searchable-pdf-writer';
import type { WorkspaceTableStores } from '../../../../shared/container/kit/workspace-data';
import { workspaceFileStore } from '../../../../shared/domain/documents/bucket-layout';
import type { Clock } from '../../../../shared/domain/clock';
import type { FileStore } from '../../../../shared/domain/files/ports';
import { fileKeys } from '../../../../shared/domain/files/file-keys';
import { storeSearchablePdf } from '../../../../shared/domain/ocr/searchable-pdf';
import { testClients, uniqueName } from '../../../support/aws-resources';
import { aDocumentRecord } from '../../../support/builders';
import { pngImage } from '../../../support/fixtures';
import { testKit } from '../../../support/test-kit';

/**
 * The OCR worker's side (the kit's repositories on DynamoDB Local and the S3 emulator, the imaging pool's
 * writer): a PDF a tight plan has no room for is not kept, and the document says why.
 */
describe('a searchable PDF past the plan', () => {
  const writer = new PoolSearchablePdfWriter({ poolOptions: { size: 1 } });
  let w: Pick<WorkspaceTableStores, 'documents' | 'ocrJobs'> & { files: FileStore; clock: Clock };
  const image = pngImage(400, 200);

  beforeAll(async () => {
    const { s3 } = testClients();
    const bucket = uniqueName('pdf-quota');
    await ensureBucket(s3, bucket);
    // A plan with room for the original and not much more.
    const plan = { documents_stored: 'unlimited', bytes_stored: image.byteLength + 10, ocr_pages_per_month: 'unlimited', sources: 'unlimited', members: 'unlimited', api_tokens: 'unlimited' };
    const kit = await testKit({ env: { PLANS: JSON.stringify({ tight: plan }), DEFAULT_PLAN: 'tight' } });
    const workspaceId = crypto.randomUUID();
    await kit.gate.workspaces.create({ id: workspaceId, name: 'tight', created_at: new Date().toISOString() });
    w = { ...kit.stores('documents', 'ocrJobs')(workspaceId), clock: kit.clock, files: workspaceFileStore(new S3FileStore(s3, bucket), workspaceId) };
  });

  afterAll(() => writer.close());

  it('is not kept, and the document records why', async () => {
    const document = aDocumentRecord({ status: 'completed', mime_type: 'image/png', size: image.byteLength, sha256: crypto.randomUUID() });
    await w.files.put(fileKeys.original(document.id), image, 'image/png');
    await w.documents.create(document);
    const file = { size: image.byteLength, sha256: document.sha256, mimeType: 'image/png', readBytes: async () => new Uint8Array(image) };

    const state = await storeSearchablePdf({ ...w, searchablePdf: writer }, document.id, file, [[{ text: 'invoice', left: 0.1, top: 0.1, width: 0.3, height: 0.1 }]]);

    const stored = await w.documents.get(document.id);
    expect(state).toMatchObject({ reason: 'not_written' });
    expect({ size: stored?.searchable_pdf_size, reason: stored?.searchable_pdf_reason }).toEqual({ size: undefined, reason: 'not_written' });
    expect(stored?.searchable_pdf_message).toContain('storage quota');
    expect(await w.files.get(fileKeys.searchablePdf(document.id))).toBeNull();
  });
});
