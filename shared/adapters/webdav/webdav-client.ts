import http, { type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import {
  SourceAccessError,
  type RemoteEntry,
  type RemoteFile,
  type RemoteFolder,
  type RemoteFolderConfig,
  type RemoteFolders,
  type RemoteListing,
} from '../../domain/sources/remote-folder';
import { createGuardedLookup } from './address-policy';
import type { WebDavFoldersOptions } from './options';
import { discard, send, shown, statusError, streamBody, type Transport } from './http-exchange';
import { ListingTooLarge, readMultistatus } from './multistatus';

const PROPFIND_BODY =
  '<?xml version="1.0" encoding="utf-8"?>\n' +
  '<d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/><d:getetag/><d:getcontentlength/><d:getlastmodified/></d:prop></d:propfind>';

/** `a/b c` → ['a', 'b c']; '.'/'..' are refused (a path under the root never has them). */
const pathSegments = (path: string): string[] => {
  const segments = path.split('/').filter(Boolean);
  if (segments.some((segment) => segment === '.' || segment === '..')) {
    throw new SourceAccessError('protocol', `"${path}" is not a path under the source.`);
  }
  return segments;
};

class WebDavFolder implements RemoteFolder {
  private readonly root: URL | null;
  private readonly authorization: string | null;

  constructor(
    private readonly transport: Transport,
    config: RemoteFolderConfig,
  ) {
    let root: URL | null = null;
    try {
      root = new URL(config.url);
    } catch {
      root = null;
    }
    if (root && (root.protocol === 'http:' || root.protocol === 'https:')) {
      root.username = '';
      root.password = '';
      root.search = '';
      root.hash = '';
      if (!root.pathname.endsWith('/')) root.pathname += '/';
      this.root = root;
    } else this.root = null;
    this.authorization =
      config.username || config.password ? `Basic ${Buffer.from(`${config.username}:${config.password}`, 'utf8').toString('base64')}` : null;
  }

  private urlOf(path: string, collection: boolean): URL {
    if (!this.root) throw new SourceAccessError('protocol', 'The source URL is not an http(s) URL.');
    const segments = pathSegments(path).map(encodeURIComponent);
    if (!collection && !segments.length) return new URL(this.root.href.replace(/\/$/, ''));
    return new URL(segments.join('/') + (collection && segments.length ? '/' : ''), this.root);
  }

  private headers(extra: OutgoingHttpHeaders): OutgoingHttpHeaders {
    return {
      'user-agent': this.transport.options.userAgent ?? 'docservice-webdav',
      ...(this.authorization ? { authorization: this.authorization } : {}),
      ...extra,
    };
  }

  /** PROPFIND → the entries, relative to where it was answered (a redirect may move it), placed under `prefix`. */
  private async propfind(requested: URL, depth: '0' | '1', prefix: string, signal?: AbortSignal) {
    const headers = this.headers({
      depth,
      'content-type': 'application/xml; charset=utf-8',
      'content-length': Buffer.byteLength(PROPFIND_BODY),
      accept: 'application/xml, text/xml',
    });
    const { response, url } = await send(this.transport, { method: 'PROPFIND', url: requested, headers, body: PROPFIND_BODY, signal });
    const status = response.statusCode ?? 0;
    if (status !== 207 && status !== 200) {
      discard(response);
      throw statusError(status, url, prefix ? `"${prefix}"` : 'the folder');
    }
    try {
      const { entries } = await readMultistatus(streamBody(this.transport, response, url, signal), { rootUrl: url, prefix });
      return { url, status, entries };
    } catch (error) {
      if (error instanceof ListingTooLarge) throw new ListingTooLarge(`${shown(url)}: ${error.message}`);
      // What the body said, not how it travelled (a timeout mid-body stays a timeout).
      if (status !== 200 || !(error instanceof SourceAccessError) || error.failure !== 'protocol') throw error;
      throw new SourceAccessError('protocol', `${shown(url)} answered PROPFIND with 200 and no multistatus: not a WebDAV server.`, status);
    }
  }

  async list(path: string, options: { signal?: AbortSignal } = {}): Promise<RemoteListing> {
    const prefix = pathSegments(path).join('/');
    const { signal } = options;
    const isFile = (entries: RemoteEntry[]) => entries.some((entry) => entry.path === prefix && entry.kind === 'file');
    let answer: Awaited<ReturnType<WebDavFolder['propfind']>>;
    try {
      answer = await this.propfind(this.urlOf(path, true), '1', prefix, signal);
    } catch (error) {
      // Apache answers 400 to `file.pdf/`: one Depth 0 PROPFIND without the slash tells a file from a bad request.
      const probe =
        error instanceof SourceAccessError && error.status === 400
          ? await this.propfind(this.urlOf(path, false), '0', prefix, signal).catch(() => null)
          : null;
      if (probe && isFile(probe.entries)) throw new SourceAccessError('not_a_collection', `${shown(probe.url)} is a file, not a folder.`);
      throw error;
    }
    const { entries, url } = answer;
    const directory = entries.find((entry) => entry.path === prefix);
    if (isFile(entries) || (!directory && entries.length === 1 && entries[0]?.kind === 'file')) {
      throw new SourceAccessError('not_a_collection', `${shown(url)} is a file, not a folder.`);
    }
    const depth = prefix ? prefix.split('/').length : 0;
    return {
      // Servers must list the collection itself; one that does not still has told us it is one.
      directory: directory ?? { path: prefix, kind: 'directory', etag: null, size: null, lastModified: null },
      // Depth 1: direct children only, whatever a server adds.
      children: entries.filter((entry) => entry.path !== prefix && entry.path.split('/').length === depth + 1),
    };
  }

  async read(path: string, options: { signal?: AbortSignal } = {}): Promise<RemoteFile> {
    if (!pathSegments(path).length) throw new SourceAccessError('protocol', 'The root of a source is a folder: there is no file to read.');
    const { signal } = options;
    const { response, url } = await send(this.transport, { method: 'GET', url: this.urlOf(path, false), headers: this.headers({}), signal });
    const status = response.statusCode ?? 0;
    if (status !== 200) {
      discard(response);
      throw statusError(status, url, `"${path}"`);
    }
    const length = response.headers['content-length'];
    return {
      body: streamBody(this.transport, response, url, signal),
      size: length !== undefined && /^\d+$/.test(length) ? Number(length) : null,
    };
  }
}

/**
 * {@link RemoteFolders} over WebDAV with node:http(s), not fetch: the agents' `lookup` is where every
 * connection's address is checked. Keep-alive agents are shared by all folders opened here, so a sync that
 * lists hundreds of directories reuses its connections.
 */
export class WebDavFolders implements RemoteFolders {
  private readonly transport: Transport;

  constructor(options: WebDavFoldersOptions) {
    const all = { requestTimeoutMs: 30_000, maxRedirects: 5, ...options };
    const lookup = createGuardedLookup(all);
    this.transport = {
      options: all,
      lookup,
      agents: {
        'http:': new http.Agent({ keepAlive: true, maxSockets: 8, lookup }),
        'https:': new https.Agent({ keepAlive: true, maxSockets: 8, lookup }),
      },
    };
  }

  open(config: RemoteFolderConfig): RemoteFolder {
    return new WebDavFolder(this.transport, config);
  }

  /** Closes the idle keep-alive connections (at shutdown, and in tests). */
  close(): void {
    this.transport.agents['http:'].destroy();
    this.transport.agents['https:'].destroy();
  }
}
