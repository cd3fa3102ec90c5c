import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApiClient, ApiResponse } from '../api-client';
import { watchRuntimeDuring, type RuntimeWatch } from '../health-watch';

/**
 * A hostile WebDAV server: every PROPFIND is answered with one huge Depth 1 multistatus (a directory of
 * `entries` files), written as the client reads it so the server never holds it. Plain node:http on 127.0.0.1,
 * for the e2e test of sources and a bench alike.
 */

/** The entries of the listing the security review reproduced the stall with (about 51 MB). */
export const HOSTILE_LISTING_ENTRIES = 180_000;

export interface HostileListingServer {
  /** The listed collection, ending in a slash: http://127.0.0.1:PORT/dav/ */
  url: string;
  /** PROPFINDs received so far. */
  propfinds(): number;
  /** Body bytes written to clients so far (a client that stops reading stops them). */
  bytesSent(): number;
  stop(): Promise<void>;
}

/** One file's `<response>`: the properties the adapter asks for, as a real server writes them. */
export const listingResponse = (index: number): string =>
  `<D:response><D:href>/dav/scan-${String(index).padStart(6, '0')}.pdf</D:href><D:propstat><D:prop><D:resourcetype/>` +
  `<D:getetag>"${index.toString(16)}"</D:getetag><D:getcontentlength>48213</D:getcontentlength>` +
  '<D:getlastmodified>Mon, 02 Nov 2026 10:15:00 GMT</D:getlastmodified></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>\n';

const LISTING_HEAD =
  '<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:">\n' +
  '<D:response><D:href>/dav/</D:href><D:propstat><D:prop><D:resourcetype><D:collection/></D:resourcetype>' +
  '<D:getetag>"dir-1"</D:getetag></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>\n';
const LISTING_TAIL = '</D:multistatus>\n';
/** Responses written per chunk. */
const BATCH = 500;

/** Writes the listing in batches, waiting for the client to drain each; stops when the client goes away. */
async function writeListing(response: ServerResponse, entries: number, count: (bytes: number) => void): Promise<void> {
  const write = async (text: string): Promise<boolean> => {
    if (response.destroyed) return false;
    count(Buffer.byteLength(text));
    if (!response.write(text)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          response.off('drain', done);
          response.off('close', done);
          resolve();
        };
        response.on('drain', done);
        response.on('close', done);
      });
    }
    return !response.destroyed;
  };
  if (!(await write(LISTING_HEAD))) return;
  for (let from = 0; from < entries; from += BATCH) {
    let batch = '';
    for (let index = from; index < Math.min(entries, from + BATCH); index += 1) batch += listingResponse(index);
    if (!(await write(batch))) return;
  }
  if (await write(LISTING_TAIL)) response.end();
}

/**
 * Starts the hostile server. OPTIONS answers as a WebDAV server does; PROPFIND on any path answers 207 with the
 * listing of `/dav/` (chunked, no length, as a server generating it would), whatever the credentials.
 */
export async function startHostileListingServer(options: { entries?: number } = {}): Promise<HostileListingServer> {
  const entries = options.entries ?? HOSTILE_LISTING_ENTRIES;
  let propfinds = 0;
  let sent = 0;
  const server = createServer((request, response) => {
    request.resume();
    if (request.method === 'OPTIONS') {
      response.writeHead(200, { dav: '1, 2', allow: 'OPTIONS, GET, HEAD, PROPFIND', 'content-length': '0' }).end();
    } else if (request.method === 'PROPFIND') {
      propfinds += 1;
      response.writeHead(207, { 'content-type': 'application/xml; charset=utf-8' });
      void writeListing(response, entries, (bytes) => (sent += bytes));
    } else {
      response.writeHead(405, { 'content-length': '0' }).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/dav/`,
    propfinds: () => propfinds,
    bytesSent: () => sent,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** What {@link createSourceOnHostileListing} saw. */
export interface HostileListingOutcome {
  /** The answer to POST /api/sources. */
  create: ApiResponse;
  /** /api/health and the runtime's memory while the create ran. */
  watch: RuntimeWatch;
  createMs: number;
}

/**
 * The attack: an editor creates a source on the hostile server's URL (the create lists it with one PROPFIND)
 * while /api/health is polled and the runtime's memory sampled.
 */
export async function createSourceOnHostileListing(
  runtime: { baseUrl: string; child: { pid?: number | undefined } },
  editor: ApiClient,
  server: HostileListingServer,
): Promise<HostileListingOutcome> {
  const started = performance.now();
  const create = editor.post('/api/sources', {
    name: 'Hostile listing',
    type: 'webdav',
    url: server.url,
    username: 'sync',
    password: 'any password',
    sync_interval: 3600,
  });
  const timed = create.then((response) => ({ response, ms: performance.now() - started }));
  const watch = await watchRuntimeDuring(runtime, timed);
  const { response, ms } = await timed;
  return { create: response, watch, createMs: ms };
}
