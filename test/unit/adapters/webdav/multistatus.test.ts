import { describe, expect, it } from 'vitest';
import { parseMultistatus, ListingTooLarge, readMultistatus, SLICE_CHARS } from '../../../../shared/adapters/webdav/multistatus';
import { SourceAccessError } from '../../../../shared/domain/sources/remote-folder';
import { rejectionOf } from '../../../support/rejection';

const ROOT = 'http://dav.example.com/dav/';

/** Apache mod_dav: `D:` for DAV:, live props under `lp1:` (also DAV:), strong ETags, a 404 propstat. */
const APACHE = `<?xml version="1.0" encoding="utf-8"?>
<D:multistatus xmlns:D="DAV:" xmlns:ns0="DAV:">
<D:response xmlns:lp1="DAV:" xmlns:lp2="http://apache.org/dav/props/">
<D:href>/dav/</D:href>
<D:propstat><D:prop><lp1:resourcetype><D:collection/></lp1:resourcetype>
<lp1:getlastmodified>Mon, 02 Nov 2026 10:15:00 GMT</lp1:getlastmodified>
<lp1:getetag>"1000-5a1b2c3d4e5f6"</lp1:getetag></D:prop>
<D:status>HTTP/1.1 200 OK</D:status></D:propstat>
<D:propstat><D:prop><D:getcontentlength/></D:prop><D:status>HTTP/1.1 404 Not Found</D:status></D:propstat>
</D:response>
<D:response xmlns:lp1="DAV:" xmlns:lp2="http://apache.org/dav/props/">
<D:href>/dav/Quarterly%20Report.pdf</D:href>
<D:propstat><D:prop><lp1:resourcetype/><lp1:getcontentlength>48213</lp1:getcontentlength>
<lp1:getlastmodified>Tue, 03 Nov 2026 08:00:05 GMT</lp1:getlastmodified>
<lp1:getetag>"bc55-5a1b2c3d4e5f7"</lp1:getetag></D:prop>
<D:status>HTTP/1.1 200 OK</D:status></D:propstat>
</D:response>
<D:response xmlns:lp1="DAV:"><D:href>/dav/invoices/</D:href>
<D:propstat><D:prop><lp1:resourcetype><D:collection/></lp1:resourcetype><lp1:getetag>"0-5a1"</lp1:getetag></D:prop>
<D:status>HTTP/1.1 200 OK</D:status></D:propstat>
<D:propstat><D:prop><D:getcontentlength/></D:prop><D:status>HTTP/1.1 404 Not Found</D:status></D:propstat>
</D:response>
</D:multistatus>`;

/** rclone serve webdav (golang.org/x/net/webdav): `D:` prefix, absolute-path hrefs, no getetag on directories. */
const RCLONE = `<?xml version="1.0" encoding="UTF-8"?><D:multistatus xmlns:D="DAV:"><D:response><D:href>/dav/</D:href><D:propstat><D:prop><D:resourcetype><D:collection xmlns:D="DAV:"/></D:resourcetype><D:getlastmodified>Mon, 02 Nov 2026 10:15:00 GMT</D:getlastmodified></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat><D:propstat><D:prop><D:getetag></D:getetag><D:getcontentlength></D:getcontentlength></D:prop><D:status>HTTP/1.1 404 Not Found</D:status></D:propstat></D:response><D:response><D:href>/dav/caf%C3%A9.txt</D:href><D:propstat><D:prop><D:resourcetype></D:resourcetype><D:getetag>"18722e9ab0c0a1f5"</D:getetag><D:getcontentlength>12</D:getcontentlength><D:getlastmodified>Sat, 07 Nov 2026 21:03:41 GMT</D:getlastmodified></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response></D:multistatus>`;

/** nginx with nginx-dav-ext-module: `D:` prefix, no getetag at all, lastmodified and length only. */
const NGINX = `<?xml version="1.0" encoding="utf-8" ?>
<D:multistatus xmlns:D="DAV:">
<D:response>
<D:href>/dav/</D:href>
<D:propstat>
<D:prop>
<D:getlastmodified>Wed, 04 Nov 2026 12:00:00 GMT</D:getlastmodified>
<D:resourcetype><D:collection/></D:resourcetype>
</D:prop>
<D:status>HTTP/1.1 200 OK</D:status>
</D:propstat>
</D:response>
<D:response>
<D:href>/dav/notes.md</D:href>
<D:propstat>
<D:prop>
<D:getcontentlength>204</D:getcontentlength>
<D:getlastmodified>Wed, 04 Nov 2026 12:01:00 GMT</D:getlastmodified>
<D:resourcetype></D:resourcetype>
</D:prop>
<D:status>HTTP/1.1 200 OK</D:status>
</D:propstat>
</D:response>
</D:multistatus>`;

/** Nextcloud (SabreDAV): `d:` prefix, absolute-path hrefs under remote.php, oc:/nc: props, W/ ETags are possible. */
const NEXTCLOUD_ROOT = 'https://cloud.example.com/remote.php/dav/files/alice/Documents/';
const NEXTCLOUD = `<?xml version="1.0"?>
<d:multistatus xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns" xmlns:oc="http://owncloud.org/ns" xmlns:nc="http://nextcloud.org/ns">
 <d:response>
  <d:href>/remote.php/dav/files/alice/Documents/</d:href>
  <d:propstat><d:prop><d:getlastmodified>Thu, 05 Nov 2026 09:30:00 GMT</d:getlastmodified>
   <d:resourcetype><d:collection/></d:resourcetype><d:getetag>&quot;6543a1b2c3d4e&quot;</d:getetag>
   <oc:size>48417</oc:size><oc:id>00000042ocabcdef</oc:id></d:prop>
   <d:status>HTTP/1.1 200 OK</d:status></d:propstat>
  <d:propstat><d:prop><d:getcontentlength/></d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat>
 </d:response>
 <d:response>
  <d:href>/remote.php/dav/files/alice/Documents/Na%C3%AFve%20plan%20%26%20budget.odt</d:href>
  <d:propstat><d:prop><d:getlastmodified>Thu, 05 Nov 2026 09:31:12 GMT</d:getlastmodified>
   <d:getcontentlength>36227</d:getcontentlength><d:resourcetype/><d:getetag>W/"a1b2c3"</d:getetag>
   <oc:size>36227</oc:size></d:prop>
   <d:status>HTTP/1.1 200 OK</d:status></d:propstat>
 </d:response>
</d:multistatus>`;

/** A server that declares DAV: as the default namespace and sends absolute hrefs. */
const DEFAULT_NAMESPACE = `<?xml version="1.0" encoding="utf-8"?>
<multistatus xmlns="DAV:">
  <response><href>http://dav.example.com/dav/</href>
    <propstat><prop><resourcetype><collection/></resourcetype></prop><status>HTTP/1.1 200 OK</status></propstat></response>
  <response><href>http://dav.example.com/dav/scans/</href>
    <propstat><prop><resourcetype><collection/></resourcetype><getetag>  W/"dir-7"  </getetag></prop><status>HTTP/1.1 200 OK</status></propstat></response>
</multistatus>`;

const multistatus = (...responses: string[]) =>
  `<?xml version="1.0"?><D:multistatus xmlns:D="DAV:">${responses.join('')}</D:multistatus>`;
const fileResponse = (href: string) =>
  `<D:response><D:href>${href}</D:href><D:propstat><D:prop><D:resourcetype/></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>`;

describe('parseMultistatus', () => {
  it('reads an Apache mod_dav listing whose live properties use the lp1: prefix for DAV:', () => {
    // Act
    const { entries } = parseMultistatus(APACHE, { rootUrl: ROOT });

    // Assert
    expect(entries).toEqual([
      { path: '', kind: 'directory', etag: '"1000-5a1b2c3d4e5f6"', size: null, lastModified: '2026-11-02T10:15:00.000Z' },
      { path: 'Quarterly Report.pdf', kind: 'file', etag: '"bc55-5a1b2c3d4e5f7"', size: 48213, lastModified: '2026-11-03T08:00:05.000Z' },
      { path: 'invoices', kind: 'directory', etag: '"0-5a1"', size: null, lastModified: null },
    ]);
  });

  it('reads an rclone listing and decodes UTF-8 names', () => {
    // Act
    const { entries } = parseMultistatus(RCLONE, { rootUrl: ROOT });

    // Assert
    expect(entries).toEqual([
      { path: '', kind: 'directory', etag: null, size: null, lastModified: '2026-11-02T10:15:00.000Z' },
      { path: 'café.txt', kind: 'file', etag: '"18722e9ab0c0a1f5"', size: 12, lastModified: '2026-11-07T21:03:41.000Z' },
    ]);
  });

  it('treats props under a 404 propstat as absent, not as empty values', () => {
    // Act
    const { entries } = parseMultistatus(RCLONE, { rootUrl: ROOT });

    // Assert
    expect(entries[0]).toMatchObject({ etag: null, size: null });
  });

  it('reads an nginx-dav-ext listing that sends no ETags', () => {
    // Act
    const { entries } = parseMultistatus(NGINX, { rootUrl: ROOT });

    // Assert
    expect(entries).toEqual([
      { path: '', kind: 'directory', etag: null, size: null, lastModified: '2026-11-04T12:00:00.000Z' },
      { path: 'notes.md', kind: 'file', etag: null, size: 204, lastModified: '2026-11-04T12:01:00.000Z' },
    ]);
  });

  it('reads a Nextcloud listing with the d: prefix, ignoring oc: props and keeping a weak ETag as sent', () => {
    // Act
    const { entries } = parseMultistatus(NEXTCLOUD, { rootUrl: NEXTCLOUD_ROOT });

    // Assert
    expect(entries).toEqual([
      { path: '', kind: 'directory', etag: '"6543a1b2c3d4e"', size: null, lastModified: '2026-11-05T09:30:00.000Z' },
      { path: 'Naïve plan & budget.odt', kind: 'file', etag: 'W/"a1b2c3"', size: 36227, lastModified: '2026-11-05T09:31:12.000Z' },
    ]);
  });

  it('reads a listing in the default namespace with absolute hrefs and trims ETags', () => {
    // Act
    const { entries } = parseMultistatus(DEFAULT_NAMESPACE, { rootUrl: ROOT });

    // Assert
    expect(entries).toEqual([
      { path: '', kind: 'directory', etag: null, size: null, lastModified: null },
      { path: 'scans', kind: 'directory', etag: 'W/"dir-7"', size: null, lastModified: null },
    ]);
  });

  it('ignores a property of the same name in another namespace', () => {
    // Arrange
    const body = `<D:multistatus xmlns:D="DAV:" xmlns:X="urn:other"><D:response><D:href>/dav/a</D:href>
      <D:propstat><D:prop><D:resourcetype/><X:getetag>"not-dav"</X:getetag></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>
      </D:response></D:multistatus>`;

    // Act
    const { entries } = parseMultistatus(body, { rootUrl: ROOT });

    // Assert
    expect(entries[0]?.etag).toBeNull();
  });

  it('places entries under the prefix when the root URL is a listed subdirectory', () => {
    // Arrange
    const body = multistatus(fileResponse('/dav/invoices/2026/march.pdf'));

    // Act
    const { entries } = parseMultistatus(body, { rootUrl: 'http://dav.example.com/dav/invoices/2026/', prefix: 'invoices/2026' });

    // Assert
    expect(entries[0]?.path).toBe('invoices/2026/march.pdf');
  });

  it('matches hrefs encoded differently from the root URL', () => {
    // Arrange
    const body = multistatus(fileResponse('/dav/My Files/%7Ereport.txt'));

    // Act
    const { entries } = parseMultistatus(body, { rootUrl: 'http://dav.example.com/dav/My%20Files/' });

    // Assert
    expect(entries[0]?.path).toBe('~report.txt');
  });

  it('falls back to the trailing slash for the kind when resourcetype is missing', () => {
    // Arrange
    const body = multistatus(
      '<D:response><D:href>/dav/photos/</D:href><D:propstat><D:prop><D:getetag>"p"</D:getetag></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>',
    );

    // Act
    const { entries } = parseMultistatus(body, { rootUrl: ROOT });

    // Assert
    expect(entries[0]).toMatchObject({ path: 'photos', kind: 'directory' });
  });

  it('leaves an unreadable getlastmodified and getcontentlength as null', () => {
    // Arrange
    const body = multistatus(
      '<D:response><D:href>/dav/a.txt</D:href><D:propstat><D:prop><D:resourcetype/><D:getcontentlength>lots</D:getcontentlength><D:getlastmodified>yesterday-ish</D:getlastmodified></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>',
    );

    // Act
    const { entries } = parseMultistatus(body, { rootUrl: ROOT });

    // Assert
    expect(entries[0]).toMatchObject({ size: null, lastModified: null });
  });

  it('skips an href with bad percent-encoding, with a reason, and keeps the rest', () => {
    // Arrange
    const body = multistatus(fileResponse('/dav/bad%E9name.txt'), fileResponse('/dav/good.txt'));

    // Act
    const { entries, skipped } = parseMultistatus(body, { rootUrl: ROOT });

    // Assert
    expect(entries.map((entry) => entry.path)).toEqual(['good.txt']);
    expect(skipped).toEqual([{ href: '/dav/bad%E9name.txt', reason: expect.stringContaining('cannot be decoded') }]);
  });

  it('skips a name with an encoded slash, which could not be told from a separator', () => {
    // Act
    const { entries, skipped } = parseMultistatus(multistatus(fileResponse('/dav/a%2Fb.txt')), { rootUrl: ROOT });

    // Assert
    expect(entries).toEqual([]);
    expect(skipped).toHaveLength(1);
  });

  it('skips a response that carries only a 404 status', () => {
    // Arrange
    const body = multistatus('<D:response><D:href>/dav/gone.txt</D:href><D:status>HTTP/1.1 404 Not Found</D:status></D:response>');

    // Act
    const { entries, skipped } = parseMultistatus(body, { rootUrl: ROOT });

    // Assert
    expect(entries).toEqual([]);
    expect(skipped[0]?.reason).toContain('404');
  });

  it.each([
    ['a path outside the root', '/etc/passwd'],
    ['a sibling folder sharing the prefix', '/dav-other/x.txt'],
    ['a ".." segment', '/dav/a/../b.txt'],
    ['an encoded ".." segment', '/dav/%2e%2e/secret'],
    ['an absolute href outside the root', 'http://dav.example.com/private/x'],
  ])('refuses an href with %s', (_name, href) => {
    // Act
    const parsing = () => parseMultistatus(multistatus(fileResponse(href)), { rootUrl: ROOT });

    // Assert
    expect(parsing).toThrow(expect.objectContaining({ failure: 'protocol' }) as SourceAccessError);
  });

  it.each([
    ['HTML', '<html><body>It works!</body></html>'],
    ['malformed XML', '<D:multistatus xmlns:D="DAV:"><D:response>'],
    ['a DTD with entities', '<!DOCTYPE x [<!ENTITY a "aaaa">]><D:multistatus xmlns:D="DAV:"/>'],
    ['a multistatus outside the DAV: namespace', '<D:multistatus xmlns:D="urn:not-dav"/>'],
  ])('refuses a body that is %s', (_name, body) => {
    // Act
    const parsing = () => parseMultistatus(body, { rootUrl: ROOT });

    // Assert
    expect(parsing).toThrow(SourceAccessError);
  });
});

/** A file of 12 bytes at the root, by name. */
const sizedFileResponse = (name: string) =>
  `<D:response><D:href>/dav/${name}</D:href><D:propstat><D:prop><D:resourcetype/><D:getcontentlength>12</D:getcontentlength></D:prop>` +
  '<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>';
const DIRECTORY =
  '<D:response><D:href>/dav/</D:href><D:propstat><D:prop><D:resourcetype><D:collection/></D:resourcetype></D:prop>' +
  '<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>';
/** A Depth 1 listing of the root with `files` files. */
const listing = (files: number) => {
  const responses = Array.from({ length: files }, (_, i) => sizedFileResponse(`file-${i}.txt`)).join('');
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
