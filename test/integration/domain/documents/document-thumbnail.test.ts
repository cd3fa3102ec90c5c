import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasThumbnailRenderer } from '../../../../shared/adapters/imaging/canvas-thumbnail-renderer';
import { documentThumbnail } from '../../../../shared/domain/documents/document-thumbnail';
import type { ThumbnailRenderer } from '../../../../shared/domain/documents/thumbnails';
import { AppError } from '../../../../shared/domain/errors';
import { fileKeys } from '../../../../shared/domain/files/file-keys';
import { OCR_CORPUS_DIR } from '../../../contracts/ocr-engine.contract';
import { PNG } from '../../../support/minimal-files';
import { domainStores, refusalOf, type WorkspaceStores } from '../workspace-stores';
import { aStoredDocument } from './document-setup';

const TYPEWRITER = new Uint8Array(readFileSync(join(OCR_CORPUS_DIR, 'typewriter.png')));
const BOX = { width: 120, height: 120 };

/** The canvas renderer, counting the renders it was asked for. */
class CountedRenderer implements ThumbnailRenderer {
  renders = 0;
  constructor(private readonly renderer: ThumbnailRenderer) {}
  render(...args: Parameters<ThumbnailRenderer['render']>) {
    this.renders++;
    return this.renderer.render(...args);
  }
}

describe('documentThumbnail', () => {
  let stores: Awaited<ReturnType<typeof domainStores>>;
  const canvas = new CanvasThumbnailRenderer();

  beforeAll(async () => {
    stores = await domainStores();
  });

  afterAll(() => canvas.close());

  /** A document of the workspace whose original file is `bytes`. */
  const withOriginal = async (w: WorkspaceStores, bytes: Uint8Array, mimeType = 'image/png') => {
    const document = await aStoredDocument(w, { mime_type: mimeType, size: bytes.length });
    await w.files.put(fileKeys.original(document.id), bytes, mimeType);
    return document;
  };

  it('renders the first page within the box and stores it beside the original', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = await withOriginal(w, TYPEWRITER);

    // Act
    const thumbnail = await documentThumbnail({ ...w, thumbnails: canvas }, document.id, BOX);

    // Assert
    const header = Buffer.from(thumbnail.bytes);
    expect({ type: thumbnail.mimeType, fits: Math.max(header.readUInt32BE(16), header.readUInt32BE(20)) <= BOX.width }).toEqual({ type: 'image/png', fits: true });
    expect(await w.files.get(fileKeys.thumbnail(document.id, BOX.width, BOX.height))).toEqual(thumbnail.bytes);
  });

  it('serves a size rendered before from storage, without rendering again', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = await withOriginal(w, TYPEWRITER);
    const renderer = new CountedRenderer(canvas);
    const first = await documentThumbnail({ ...w, thumbnails: renderer }, document.id, BOX);

    // Act
    const second = await documentThumbnail({ ...w, thumbnails: renderer }, document.id, BOX);

    // Assert
    expect({ renders: renderer.renders, same: Buffer.from(second.bytes).equals(Buffer.from(first.bytes)) }).toEqual({ renders: 1, same: true });
  });

  it('refuses a file that cannot be rendered with 400 on file, and every later size at once', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = await withOriginal(w, PNG);
    const renderer = new CountedRenderer(canvas);
    const first = await refusalOf(documentThumbnail({ ...w, thumbnails: renderer }, document.id, BOX));

    // Act
    const later = await refusalOf(documentThumbnail({ ...w, thumbnails: renderer }, document.id, { width: 400, height: 400 }));

    // Assert
    expect(first).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'file' } });
    expect(later).toEqual(first);
    expect(renderer.renders).toBe(1);
  });

  it('does not remember a refusal for want of capacity: the next request renders', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = await withOriginal(w, TYPEWRITER);
    let calls = 0;
    const busyOnce: ThumbnailRenderer = {
      render: (...args) => (++calls === 1 ? Promise.reject(new AppError('SERVICE_UNAVAILABLE', 'busy', { retry_after_seconds: 1 })) : canvas.render(...args)),
    };
    const refused = await refusalOf(documentThumbnail({ ...w, thumbnails: busyOnce }, document.id, BOX));

    // Act
    const thumbnail = await documentThumbnail({ ...w, thumbnails: busyOnce }, document.id, BOX);

    // Assert
    expect(refused).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(thumbnail.mimeType).toBe('image/png');
  });

  it('answers 404 on the document file when the original is missing', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const document = await aStoredDocument(w);

    // Act
    const refused = await refusalOf(documentThumbnail({ ...w, thumbnails: canvas }, document.id, BOX));

    // Assert
    expect(refused).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'Document file', id: document.id } });
  });

  it("answers 404 for another workspace's document", async () => {
    // Arrange
    const [owner, stranger] = [stores.inWorkspace(), stores.inWorkspace()];
    const document = await withOriginal(owner, TYPEWRITER);

    // Act
    const refused = await refusalOf(documentThumbnail({ ...stranger, thumbnails: canvas }, document.id, BOX));

    // Assert
    expect(refused).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'Document', id: document.id } });
  });
});
