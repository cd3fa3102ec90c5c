import { describe, expect, it } from 'vitest';
import { ListingTooLarge, parseMultistatus, readMultistatus, SLICE_CHARS } from '../../../shared/adapters/webdav/multistatus';
import { SourceAccessError } from '../../../shared/domain/sources/remote-folder';
import { rejectionOf } from '../../support/rejection';

const ROOT = 'http://dav.example.com/dav/';

const fileResponse = (name: string) =>
  `<D:response><D:href>/dav/${name}</D:href><D:propstat><D:prop><D:resourcetype/><D:getcontentlength>12</D:getcontentlength></D:prop>` +
  '<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>';
const DIRECTORY =
  '<D:response><D:href>/dav/</D:href><D:propstat><D:prop><D:resourcetype><D:collection/></D:resourcetype></D:prop>' +
  '<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>';
/** A Depth 1 listing of the root with `files` files. */
const listing = (files: number) => {
  const responses = Array.from({ length: files }, (_, i) => fileResponse(`file-${i}.txt`)).join('');
  return `<?xml version="1.0"?><D:multistatus xmlns:D="DAV:">${DIRECTORY}${responses}</D:multistatus>`;
};

/** A body as it arrives, in chunks of `size` bytes; `state` tells how far it was read and whether it was left. */
function chunked(body: string | Buffer, size: number) {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const state = { chunksRead: 0, left: false };
  async function* chunks(): AsyncGenerator<Uint8Array> {
    try {
      for (let at = 0; at < bytes.length; at += size) {
        state.chunksRead += 1;
        yield bytes.subarray(at, at + size);
      }
    } finally {
      state.left = true;
    }
  }
  return { body: chunks(), state };
}

describe('readMultistatus', () => {
  it('reads a listing that arrives a byte at a time, cut inside tags and characters, as parseMultistatus reads it whole', async () => {
    // Arrange
    const body = listing(3).replace('file-1.txt', 'caf%C3%A9 &amp; naïve.txt').replace('file-2.txt', 'Gr%C3%BC%C3%9Fe.pdf');
    const { body: chunks } = chunked(Buffer.from(body.replace('</D:multistatus>', '<!-- é ü ß --></D:multistatus>')), 1);

    // Act
    const parsed = await readMultistatus(chunks, { rootUrl: ROOT });

    // Assert
    expect(parsed).toEqual(parseMultistatus(body, { rootUrl: ROOT }));
    expect(parsed.entries.map((entry) => entry.path)).toEqual(['', 'file-0.txt', 'café & naïve.txt', 'Grüße.pdf']);
  });

  it('reads a listing of as many entries as its cap allows, every one of them', async () => {
    // Arrange
    const { body } = chunked(listing(100), 4096);

    // Act
    const { entries } = await readMultistatus(body, { rootUrl: ROOT, maxEntries: 100 });

    // Assert
    expect(entries).toHaveLength(101);
    expect(entries.at(-1)).toMatchObject({ path: 'file-99.txt', kind: 'file', size: 12 });
  });

  it('refuses a listing of one entry more than its cap as too large', async () => {
    // Arrange
    const { body } = chunked(listing(101), 4096);

    // Act
    const error = await rejectionOf(readMultistatus(body, { rootUrl: ROOT, maxEntries: 100 }), ListingTooLarge);

    // Assert
    expect(error).toBeInstanceOf(SourceAccessError);
    expect(error).toMatchObject({ failure: 'listing_too_large', message: expect.stringContaining('more than 100 entries') });
  });

  it('stops reading a body larger than its byte cap, leaving the rest unread', async () => {
    // Arrange
    const { body, state } = chunked(listing(2_000), 1024);

    // Act
    const error = await rejectionOf(readMultistatus(body, { rootUrl: ROOT, maxBytes: 10 * 1024 }), ListingTooLarge);

    // Assert
    expect(error.message).toContain('larger than');
    expect(state).toEqual({ chunksRead: 11, left: true });
  });

  it('stops reading at the entry cap without waiting for the end of the body', async () => {
    // Arrange
    const { body, state } = chunked(listing(2_000), 1024);

    // Act
    await rejectionOf(readMultistatus(body, { rootUrl: ROOT, maxEntries: 10 }), ListingTooLarge);

    // Assert
    expect(state.left).toBe(true);
    expect(state.chunksRead).toBeLessThan(10);
  });

  it('hands the event loop back between slices of one large chunk', async () => {
    // Arrange
    const text = listing(2_000);
    const slices = Math.ceil(text.length / SLICE_CHARS);
    const { body } = chunked(text, text.length);
    let turns = 0;
    let reading = true;
    const turn = (): void => {
      turns += 1;
      if (reading) setImmediate(turn);
    };
    setImmediate(turn);

    // Act
    await readMultistatus(body, { rootUrl: ROOT });
    reading = false;

    // Assert
    expect(slices).toBeGreaterThan(4);
    expect(turns).toBeGreaterThanOrEqual(slices - 1);
  });

  it('refuses a response holding more elements than any real one', async () => {
    // Arrange
    const padded = `<D:response><D:href>/dav/a</D:href>${'<x:pad xmlns:x="urn:x"/>'.repeat(1_000)}</D:response>`;
    const { body } = chunked(`<D:multistatus xmlns:D="DAV:">${padded}</D:multistatus>`, 4096);

    // Act
    const error = await rejectionOf(readMultistatus(body, { rootUrl: ROOT }), SourceAccessError);

    // Assert
    expect(error).toMatchObject({ failure: 'protocol', message: expect.stringContaining('more than 1000 elements') });
  });

  it('refuses a body that is not a multistatus as soon as its first child closes', async () => {
    // Arrange
    const { body, state } = chunked(`<html><body>It works!</body>${'<p>more</p>'.repeat(10_000)}</html>`, 1024);

    // Act
    const error = await rejectionOf(readMultistatus(body, { rootUrl: ROOT }), SourceAccessError);

    // Assert
    expect(error).toMatchObject({ failure: 'protocol', message: expect.stringContaining('not a WebDAV multistatus') });
    expect(state.chunksRead).toBe(1);
  });
});
