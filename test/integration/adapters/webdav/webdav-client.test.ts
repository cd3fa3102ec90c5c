import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebDavFolders } from '../../../../shared/adapters/webdav/webdav-client';
import type { WebDavFoldersOptions } from '../../../../shared/adapters/webdav/options';
import { SourceAccessError, type RemoteFile } from '../../../../shared/domain/sources/remote-folder';
import { startApacheDav, type RunningDav } from '../../../support/webdav-servers';
import { writeSourceTree, type SourceTree } from '../../../support/webdav-tree';
import { rejectionOf } from '../../../support/rejection';
import { LISTING_LIMITS, ListingTooLarge } from '../../../../shared/adapters/webdav/multistatus';
import { startHostileListingServer, type HostileListingServer } from '../../../support/attacks/webdav-listing';

const USERNAME = 'alice';
const PASSWORD = 's3cret-Pa55word';
const AUTHORIZATION = `Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString('base64')}`;

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A node:http server on 127.0.0.1 that records what it was sent and counts its TCP connections. */
async function startServer(handler: (request: Seen, response: Parameters<RequestListener>[1]) => void) {
  const seen: Seen[] = [];
  let connections = 0;
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const entry = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body };
      seen.push(entry);
      handler(entry, response);
    });
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    seen,
    connections: () => connections,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve(server.closeAllConnections()))),
  };
}

const davResponse = (href: string, props: string) =>
  `<D:response><D:href>${href}</D:href><D:propstat><D:prop>${props}</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>`;
const COLLECTION = '<D:resourcetype><D:collection/></D:resourcetype>';
const multistatus = (...responses: string[]) =>
  `<?xml version="1.0" encoding="utf-8"?><D:multistatus xmlns:D="DAV:">${responses.join('')}</D:multistatus>`;

const ROOT_LISTING = multistatus(
  davResponse('/dav/', `${COLLECTION}<D:getetag>"root-1"</D:getetag>`),
  davResponse('/dav/Caf%C3%A9%20notes.txt', '<D:resourcetype/><D:getetag>W/"f-1"</D:getetag><D:getcontentlength>11</D:getcontentlength><D:getlastmodified>Mon, 02 Nov 2026 10:15:00 GMT</D:getlastmodified>'),
  davResponse('/dav/scans/', `${COLLECTION}<D:getetag>"scans-1"</D:getetag>`),
);

let redirectTarget: Awaited<ReturnType<typeof startServer>>;
let dav: Awaited<ReturnType<typeof startServer>>;

beforeAll(async () => {
  // Another origin (another port): what a cross-origin redirect lands on.
  redirectTarget = await startServer((_request, response) => {
    response.writeHead(207, { 'content-type': 'application/xml' }).end(multistatus(davResponse('/other/', COLLECTION)));
  });
  dav = await startServer((request, response) => {
    const { method, url } = request;
    if (request.headers.authorization !== AUTHORIZATION) return void response.writeHead(401, { 'www-authenticate': 'Basic realm="dav"' }).end('no');
    const redirect = (status: number, location: string) => void response.writeHead(status, { location }).end();
    if (url === '/moved/') return redirect(301, '/dav/');
    if (url === '/elsewhere/') return redirect(307, `${redirectTarget.origin}/other/`);
    if (url === '/loop/') return redirect(302, '/loop/');
    if (url === '/ftp/') return redirect(302, 'ftp://127.0.0.1/dav/');
    if (url === '/to-loopback-v6/') return redirect(302, `http://[::1]:${dav.port}/dav/`);
    if (url === '/html/') return void response.writeHead(200, { 'content-type': 'text/html' }).end('<html>It works!</html>');
    if (url === '/no-dav/') return void response.writeHead(405).end();
    if (url === '/private/') return void response.writeHead(403).end();
    if (url === '/silent/') return; // never answers
    if (method === 'PROPFIND' && url === '/dav/') return void response.writeHead(207, { 'content-type': 'application/xml' }).end(ROOT_LISTING);
    if (method === 'PROPFIND' && url === '/dav/My%20Docs/caf%C3%A9/') {
      return void response.writeHead(207).end(multistatus(davResponse('/dav/My%20Docs/caf%C3%A9/', COLLECTION), davResponse('/dav/My%20Docs/caf%C3%A9/a.txt', '<D:resourcetype/>')));
    }
    // A file asked for as a collection: rclone lists the file; Apache answers 400, and lists it without the slash.
    const file = (href: string) => multistatus(davResponse(href, '<D:resourcetype/><D:getcontentlength>5</D:getcontentlength>'));
    if (method === 'PROPFIND' && url === '/dav/memo.txt/') return void response.writeHead(207).end(file('/dav/memo.txt'));
    if (method === 'PROPFIND' && url === '/dav/report.pdf/') return void response.writeHead(400).end('<html>Bad Request</html>');
    if (method === 'PROPFIND' && url === '/dav/report.pdf' && request.headers.depth === '0') {
      return void response.writeHead(207).end(file('/dav/report.pdf'));
    }
    if (method === 'GET' && url === '/dav/Caf%C3%A9%20notes.txt') return void response.writeHead(200, { 'content-length': 11 }).end('hello world');
    if (method === 'GET' && url === '/dav/stalls.bin') {
      response.writeHead(200, { 'content-length': 1000 });
      return void response.write('first bytes'); // and nothing more
    }
    response.writeHead(404).end('not found');
  });
});

afterAll(async () => {
  await Promise.all([dav.stop(), redirectTarget.stop()]);
});

let clients: WebDavFolders[] = [];
afterEach(() => {
  clients.forEach((client) => client.close());
  clients = [];
});

/** A folder on the test server; loopback is a private address, so the client allows private networks. */
const folder = (path = '/dav/', options: Partial<WebDavFoldersOptions> = {}, password = PASSWORD) => {
  const client = new WebDavFolders({ allowPrivateNetworks: true, ...options });
  clients.push(client);
  return client.open({ url: `${dav.origin}${path}`, username: USERNAME, password });
};

const collect = async (file: RemoteFile): Promise<Buffer> => {
  const chunks: Uint8Array[] = [];
  for await (const chunk of file.body) chunks.push(chunk);
  return Buffer.concat(chunks);
};

const failure = (promise: Promise<unknown>): Promise<SourceAccessError> => rejectionOf(promise, SourceAccessError);

describe('WebDavFolders', () => {
  it('lists the root as the directory and its children', async () => {
    // Act
    const listing = await folder().list('');

    // Assert
    expect(listing).toEqual({
      directory: { path: '', kind: 'directory', etag: '"root-1"', size: null, lastModified: null },
      children: [
        { path: 'Café notes.txt', kind: 'file', etag: 'W/"f-1"', size: 11, lastModified: '2026-11-02T10:15:00.000Z' },
        { path: 'scans', kind: 'directory', etag: '"scans-1"', size: null, lastModified: null },
      ],
    });
  });

  it('sends PROPFIND with Depth 1, preemptive Basic credentials and a body asking for four props only', async () => {
    // Act
    await folder().list('');

    // Assert
    const request = dav.seen.findLast((entry) => entry.url === '/dav/')!;
    expect(request.method).toBe('PROPFIND');
    expect(request.headers.depth).toBe('1');
    expect(request.headers.authorization).toBe(AUTHORIZATION);
    const asked = [...request.body.matchAll(/<d:(\w+)\/>/g)].map((match) => match[1]);
    expect(asked).toEqual(['resourcetype', 'getetag', 'getcontentlength', 'getlastmodified']);
  });

  it('encodes a path segment by segment, with a trailing slash for the collection', async () => {
    // Act
    const listing = await folder().list('My Docs/café');

    // Assert
    expect(listing.directory.path).toBe('My Docs/café');
    expect(listing.children.map((child) => child.path)).toEqual(['My Docs/café/a.txt']);
  });

  it('reuses one connection for many listings', async () => {
    // Arrange
    const before = dav.connections();
    const remote = folder();

    // Act
    for (let i = 0; i < 20; i += 1) await remote.list('');

    // Assert
    expect(dav.connections() - before).toBe(1);
  });

  it('sends a request again on a new connection when the server closed the pooled one as it was reused', async () => {
    // Arrange: raw TCP, so the first connection can answer once and then be reset on its second request
    const body = multistatus(davResponse('/dav/', COLLECTION));
    const answer = `HTTP/1.1 207 Multi-Status\r\ncontent-type: application/xml\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    let connections = 0;
    const server = createTcpServer((socket) => {
      const connection = (connections += 1);
      let requests = 0;
      socket.on('data', () => {
        requests += 1;
        if (connection === 1 && requests === 2) socket.resetAndDestroy();
        else socket.write(answer);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = new WebDavFolders({ allowPrivateNetworks: true });
    clients.push(client);
    const source = client.open({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/dav/`, username: USERNAME, password: PASSWORD });

    // Act
    await source.list('');
    const second = await source.list('');
    server.close();

    // Assert
    expect(second.directory.kind).toBe('directory');
    expect(connections).toBe(2);
  });

  it('reads a file as a stream with its size', async () => {
    // Act
    const file = await folder().read('Café notes.txt');

    // Assert
    expect(file.size).toBe(11);
    expect((await collect(file)).toString()).toBe('hello world');
  });

  it('follows a same-origin redirect and lists where it lands', async () => {
    // Act
    const listing = await folder('/moved/').list('');

    // Assert
    expect(listing.children.map((child) => child.path)).toEqual(['Café notes.txt', 'scans']);
  });

  it('follows a redirect to another origin without sending it the credentials', async () => {
    // Act
    const listing = await folder('/elsewhere/').list('');

    // Assert
    expect(listing.directory.kind).toBe('directory');
    const landed = redirectTarget.seen.filter((request) => request.url === '/other/');
    expect(landed.length).toBeGreaterThan(0);
    expect(landed.map((request) => request.headers.authorization)).toEqual(landed.map(() => undefined));
  });

  it('gives up after the maximum number of redirects', async () => {
    // Act
    const error = await failure(folder('/loop/', { maxRedirects: 3 }).list(''));

    // Assert
    expect(error.failure).toBe('protocol');
  });

  it('refuses a redirect to a scheme other than http(s)', async () => {
    // Act
    const error = await failure(folder('/ftp/').list(''));

    // Assert
    expect(error.failure).toBe('protocol');
  });

  it('refuses a redirect to a refused address, checking the hop before connecting', async () => {
    // Arrange: the first hop's address is allowed by name; the redirect goes to ::1, which is not
    const client = new WebDavFolders({ allowPrivateNetworks: false, allowedNetworks: ['127.0.0.1/32'] });
    clients.push(client);
    const remote = client.open({ url: `${dav.origin}/to-loopback-v6/`, username: USERNAME, password: PASSWORD });

    // Act
    const error = await failure(remote.list(''));

    // Assert
    expect(error.failure).toBe('address_not_allowed');
    expect(dav.seen.some((request) => request.url === '/to-loopback-v6/')).toBe(true);
  });

  it('refuses to connect to a loopback address when private networks are not allowed', async () => {
    // Arrange
    const client = new WebDavFolders({ allowPrivateNetworks: false });
    clients.push(client);
    const before = dav.seen.length;

    // Act
    const error = await failure(client.open({ url: `${dav.origin}/dav/`, username: USERNAME, password: PASSWORD }).list(''));

    // Assert
    expect(error.failure).toBe('address_not_allowed');
    expect(dav.seen.length).toBe(before);
  });

  it('refuses a host name that resolves to loopback, at lookup', async () => {
    // Arrange
    const client = new WebDavFolders({ allowPrivateNetworks: false });
    clients.push(client);

    // Act
    const error = await failure(client.open({ url: `http://localhost:${dav.port}/dav/`, username: USERNAME, password: PASSWORD }).list(''));

    // Assert
    expect(error.failure).toBe('address_not_allowed');
  });

  it.each([
    ['a wrong password', 'unauthorized', '/dav/', 'wrong'],
    ['a 403', 'forbidden', '/private/', PASSWORD],
    ['a 404', 'not_found', '/nothing-here/', PASSWORD],
    ['a 405 to PROPFIND', 'protocol', '/no-dav/', PASSWORD],
    ['a 200 HTML page', 'protocol', '/html/', PASSWORD],
  ])('reports %s as %s', async (_name, expected, path, password) => {
    // Act
    const error = await failure(folder(path, {}, password).list(''));

    // Assert
    expect(error.failure).toBe(expected);
  });

  it('reports a root URL that is a file as not a collection', async () => {
    // Act
    const error = await failure(folder('/dav/memo.txt').list(''));

    // Assert
    expect(error.failure).toBe('not_a_collection');
  });

  it('reports a file as not a collection when the server answers 400 to it with a trailing slash', async () => {
    // Act
    const error = await failure(folder().list('report.pdf'));

    // Assert
    expect(error.failure).toBe('not_a_collection');
  });

  it('reports a missing file as not found', async () => {
    // Act
    const error = await failure(folder().read('missing.txt'));

    // Assert
    expect(error).toMatchObject({ failure: 'not_found', status: 404 });
  });

  it('reports a closed port as unreachable', async () => {
    // Arrange
    const closed = await startServer(() => undefined);
    await closed.stop();
    const client = new WebDavFolders({ allowPrivateNetworks: true });
    clients.push(client);

    // Act
    const error = await failure(client.open({ url: `${closed.origin}/dav/`, username: USERNAME, password: PASSWORD }).list(''));

    // Assert
    expect(error.failure).toBe('unreachable');
  });

  it('refuses a server whose certificate no trusted authority signed as untrusted, and sends it nothing', async () => {
    // Arrange: an HTTPS server with a self-signed certificate for 127.0.0.1
    const tls = (name: string) => readFileSync(new URL(`../../../fixtures/tls/${name}`, import.meta.url));
    let requests = 0;
    const server = createHttpsServer({ key: tls('self-signed.key'), cert: tls('self-signed.crt') }, (_request, response) => {
      requests += 1;
      response.writeHead(207, { 'content-type': 'application/xml' }).end(ROOT_LISTING);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const client = new WebDavFolders({ allowPrivateNetworks: true });
    clients.push(client);

    try {
      // Act
      const error = await failure(client.open({ url: `https://127.0.0.1:${port}/dav/`, username: USERNAME, password: PASSWORD }).list(''));

      // Assert
      expect(error.failure).toBe('untrusted_certificate');
      expect(error.message).toBe(`https://127.0.0.1:${port}/dav/: the server's TLS certificate is not trusted (DEPTH_ZERO_SELF_SIGNED_CERT).`);
      expect(requests).toBe(0);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('times out a server that never answers', async () => {
    // Act
    const error = await failure(folder('/silent/', { requestTimeoutMs: 300 }).list(''));

    // Assert
    expect(error.failure).toBe('timeout');
  });

  it('times out a body that stops arriving midway', async () => {
    // Arrange
    const file = await folder('/dav/', { requestTimeoutMs: 300 }).read('stalls.bin');

    // Act
    const error = await failure(collect(file));

    // Assert
    expect(error.failure).toBe('timeout');
  });

  it('stops reading when the signal aborts, with the signal’s reason', async () => {
    // Arrange
    const controller = new AbortController();
    const file = await folder().read('stalls.bin', { signal: controller.signal });
    const reading = collect(file);

    // Act
    controller.abort(new Error('sync cancelled'));

    // Assert
    await expect(reading).rejects.toThrow('sync cancelled');
  });

  it('never puts the password in a message, even when the URL carries it', async () => {
    // Arrange
    const client = new WebDavFolders({ allowPrivateNetworks: true, requestTimeoutMs: 300 });
    clients.push(client);
    const open = (path: string, password: string) =>
      client.open({ url: `http://${USERNAME}:${PASSWORD}@127.0.0.1:${dav.port}${path}`, username: USERNAME, password });

    // Act
    const errors = await Promise.all([
      failure(open('/dav/', `${PASSWORD}-wrong`).list('')),
      failure(open('/nothing/', PASSWORD).list('')),
      failure(open('/silent/', PASSWORD).list('')),
      failure(open('/loop/', PASSWORD).list('')),
      failure(open('/dav/', PASSWORD).read('stalls.bin').then(collect)),
    ]);

    // Assert
    expect(errors.map((error) => error.failure)).toEqual(['unauthorized', 'not_found', 'timeout', 'protocol', 'timeout']);
    for (const error of errors) expect(`${error.message} ${error.stack}`).not.toContain(PASSWORD);
  });
});

describe('WebDavFolders against Apache mod_dav', () => {
  let apache: RunningDav;
  let tree: SourceTree;
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'docservice-webdav-client-'));
    tree = await writeSourceTree(root);
    apache = await startApacheDav({ root, username: USERNAME, password: PASSWORD });
  });

  afterAll(async () => {
    await apache?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('walks the whole tree one Depth 1 listing at a time and reads a file byte for byte', async () => {
    // Arrange
    const client = new WebDavFolders({ allowPrivateNetworks: true });
    clients.push(client);
    const remote = client.open({ url: apache.url, username: USERNAME, password: PASSWORD });
    const files = new Map<string, number | null>();
    const directories: string[] = [];

    // Act
    const pending = [''];
    while (pending.length) {
      const { children } = await remote.list(pending.pop()!);
      for (const child of children) {
        if (child.kind === 'directory') {
          directories.push(`${child.path}/`);
          pending.push(child.path);
        } else files.set(child.path, child.size);
      }
    }
    const pdf = tree.files.find((file) => file.path === 'inbox/Quittung März 2024.pdf')!;
    const bytes = await collect(await remote.read(pdf.path));

    // Assert
    expect(directories.sort()).toEqual(tree.directories);
    expect(Object.fromEntries(files)).toEqual(Object.fromEntries(tree.files.map((file) => [file.path, file.size])));
    expect(bytes.equals(await readFile(join(root, pdf.path)))).toBe(true);
  });

  it('reports a file listed as a folder as not a collection', async () => {
    // Arrange
    const client = new WebDavFolders({ allowPrivateNetworks: true });
    clients.push(client);

    // Act
    const error = await failure(client.open({ url: apache.url, username: USERNAME, password: PASSWORD }).list('inbox/notes.txt'));

    // Assert
    expect(error.failure).toBe('not_a_collection');
  });
});

describe('WebDavFolders listing a directory near its entry cap', () => {
  const client = new WebDavFolders({ allowPrivateNetworks: true });
  let server: HostileListingServer | undefined;

  afterEach(async () => {
    await server?.stop();
  });

  afterAll(() => {
    client.close();
  });

  it('lists a directory of as many entries as the cap allows, every one of them', async () => {
    // Arrange
    server = await startHostileListingServer({ entries: LISTING_LIMITS.maxEntries });

    // Act
    const { directory, children } = await client.open({ url: server.url, username: 'sync', password: 'pw' }).list('');

    // Assert
    expect(directory).toMatchObject({ path: '', kind: 'directory', etag: '"dir-1"' });
    expect(children).toHaveLength(LISTING_LIMITS.maxEntries);
    expect(children.at(-1)).toEqual({ path: 'scan-049999.pdf', kind: 'file', etag: '"c34f"', size: 48213, lastModified: '2026-11-02T10:15:00.000Z' });
  });

  it('refuses a directory of one entry more than the cap as too large, naming the URL', async () => {
    // Arrange
    server = await startHostileListingServer({ entries: LISTING_LIMITS.maxEntries + 1 });

    // Act
    const error = await rejectionOf(client.open({ url: server.url, username: 'sync', password: 'pw' }).list(''), ListingTooLarge);

    // Assert
    expect(error).toMatchObject({ failure: 'listing_too_large', message: `${server.url}: The listing has more than 50000 entries.` });
  });
});
