import http, { type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import {
  SourceAccessError,
  type RemoteEntry,
  type RemoteFile,
  type RemoteFolder,
  type RemoteFolderConfig,
  type RemoteFolders,
  type RemoteListing,
} from '../../domain/sources/remote-folder';
import { checkLiteralHost, createGuardedLookup, type AddressPolicy } from './address-policy';
import { parseMultistatus } from './multistatus';

export interface WebDavFoldersOptions extends AddressPolicy {
  /** No response headers, or no body bytes, for this long → 'timeout' (default 30 s). */
  requestTimeoutMs?: number;
  /** Default 5. */
  maxRedirects?: number;
  userAgent?: string;
}

const PROPFIND_BODY =
  '<?xml version="1.0" encoding="utf-8"?>\n' +
  '<d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/><d:getetag/><d:getcontentlength/><d:getlastmodified/></d:prop></d:propfind>';
/** A directory of 100,000 entries is ~50 MB of XML; beyond this a listing is not a listing. */
const MAX_MULTISTATUS_BYTES = 64 * 1024 * 1024;
/** Small unread bodies are read to the end so the keep-alive socket goes back to the pool; big ones cost a socket. */
const DRAIN_LIMIT_BYTES = 64 * 1024;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

interface Transport {
  options: Required<Pick<WebDavFoldersOptions, 'requestTimeoutMs' | 'maxRedirects'>> & WebDavFoldersOptions;
  agents: { 'http:': http.Agent; 'https:': https.Agent };
  lookup: LookupFunction;
}

interface Exchange {
  method: string;
  url: URL;
  headers: OutgoingHttpHeaders;
  body?: string;
  signal?: AbortSignal;
}

/** The URL as shown in messages: no credentials, ever. */
const shown = (url: URL): string => `${url.protocol}//${url.host}${url.pathname}`;

const discard = (response: IncomingMessage): void => {
  const length = Number(response.headers['content-length']);
  if (Number.isFinite(length) && length <= DRAIN_LIMIT_BYTES) response.resume();
  else response.destroy();
};

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed',
};

/** Any failure on the wire → SourceAccessError; an abort stays the signal's reason. */
const toAccessError = (error: unknown, url: URL, signal?: AbortSignal): unknown => {
  if (signal?.aborted) return signal.reason;
  if (error instanceof SourceAccessError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  if (code === 'ETIMEDOUT') return new SourceAccessError('timeout', `${shown(url)}: the connection timed out.`);
  const reason =
    NETWORK_REASONS[code] ??
    (/TLS|SSL|CERT|SELF_SIGNED|VERIFY/.test(code) ? `TLS failure (${code})` : code ? code : 'the connection failed');
  return new SourceAccessError('unreachable', `${shown(url)}: ${reason}.`);
};

const statusError = (status: number, url: URL, what: string): SourceAccessError => {
  const at = `${shown(url)} answered ${status}`;
  if (status === 401) return new SourceAccessError('unauthorized', `${at}: the username or password is wrong.`, status);
  if (status === 403) return new SourceAccessError('forbidden', `${at}: access to ${what} is forbidden.`, status);
  if (status === 404 || status === 410) return new SourceAccessError('not_found', `${at}: ${what} does not exist.`, status);
  if (status === 405 || status === 501) {
    return new SourceAccessError('protocol', `${at}: the server does not speak WebDAV there.`, status);
  }
  // A server that is down or overloaded is, to the user, out of reach for now.
  if (status >= 500) return new SourceAccessError('unreachable', `${at}: the server failed.`, status);
  return new SourceAccessError('protocol', `${at}, which a WebDAV server does not answer to this.`, status);
};

/** One request, no redirects; resolves with the response headers, within the idle timeout. */
const requestOnce = (transport: Transport, exchange: Exchange, retry = true): Promise<IncomingMessage> =>
  new Promise((resolve, reject) => {
    const { url, signal } = exchange;
    const protocol = url.protocol as 'http:' | 'https:';
    const request = (protocol === 'https:' ? https : http).request(url, {
      method: exchange.method,
      headers: exchange.headers,
      agent: transport.agents[protocol],
      lookup: transport.lookup,
    });
    const fail = (error: unknown) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      // A pooled connection the server closed as we reused it: once more on a new one (PROPFIND and GET are safe).
      const stale = request.reusedSocket && (error as NodeJS.ErrnoException).code === 'ECONNRESET' && !signal?.aborted;
      if (stale && retry) resolve(requestOnce(transport, exchange, false));
      else reject(toAccessError(error, url, signal));
    };
    const onAbort = () => request.destroy(signal?.reason as Error);
    const timer = setTimeout(() => {
      const seconds = transport.options.requestTimeoutMs / 1000;
      request.destroy(new SourceAccessError('timeout', `${shown(url)} did not answer within ${seconds} s.`));
    }, transport.options.requestTimeoutMs);
    request.on('response', (response) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(response);
    });
    request.on('error', fail);
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    request.end(exchange.body);
  });

/**
 * Sends a request, following redirects: http(s) only, each hop's address checked (literal hosts here, names
 * in the agent's lookup), and the credentials dropped once a hop leaves the origin they were given for.
 */
const send = async (transport: Transport, first: Exchange): Promise<{ response: IncomingMessage; url: URL }> => {
  let exchange = first;
  for (let hop = 0; ; hop += 1) {
    checkLiteralHost(exchange.url, transport.options);
    const response = await requestOnce(transport, exchange);
    const location = response.headers.location;
    if (!REDIRECTS.has(response.statusCode ?? 0) || !location) return { response, url: exchange.url };
    discard(response);
    if (hop >= transport.options.maxRedirects) {
      throw new SourceAccessError('protocol', `${shown(first.url)}: more than ${transport.options.maxRedirects} redirects.`);
    }
    let next: URL;
    try {
      next = new URL(location, exchange.url);
    } catch {
      throw new SourceAccessError('protocol', `${shown(exchange.url)} redirected to an unreadable location.`);
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      throw new SourceAccessError('protocol', `${shown(exchange.url)} redirected to a ${next.protocol} URL.`);
    }
    next.username = '';
    next.password = '';
    const headers = { ...exchange.headers };
    if (next.origin !== exchange.url.origin) delete headers.authorization;
    const toGet = response.statusCode === 303 && exchange.method !== 'HEAD';
    if (toGet) {
      delete headers['content-type'];
      delete headers['content-length'];
    }
    exchange = { ...exchange, url: next, headers, method: toGet ? 'GET' : exchange.method, body: toGet ? undefined : exchange.body };
  }
};

/**
 * The body as it arrives. The idle timeout runs only while the consumer waits for bytes (a slow consumer is
 * not a slow server); leaving the loop early, a failure or an abort destroys the response.
 */
async function* streamBody(transport: Transport, response: IncomingMessage, url: URL, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  const chunks = response[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const onAbort = () => response.destroy(signal?.reason as Error);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    if (signal?.aborted) onAbort();
    for (;;) {
      const timer = setTimeout(() => {
        response.destroy(new SourceAccessError('timeout', `${shown(url)} stopped sending for ${transport.options.requestTimeoutMs / 1000} s.`));
      }, transport.options.requestTimeoutMs);
      let step: IteratorResult<Buffer>;
      try {
        step = await chunks.next();
      } catch (error) {
        throw toAccessError(error, url, signal);
      } finally {
        clearTimeout(timer);
      }
      if (step.done) return;
      yield step.value;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (!response.complete) response.destroy();
  }
}

const readText = async (transport: Transport, response: IncomingMessage, url: URL, signal?: AbortSignal): Promise<string> => {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of streamBody(transport, response, url, signal)) {
    total += chunk.byteLength;
    if (total > MAX_MULTISTATUS_BYTES) throw new SourceAccessError('protocol', `${shown(url)}: the listing is larger than 64 MB.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
};

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
    const body = await readText(this.transport, response, url, signal);
    try {
      return { url, status, entries: parseMultistatus(body, { rootUrl: url, prefix }).entries };
    } catch (error) {
      if (status !== 200 || !(error instanceof SourceAccessError)) throw error;
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
