import http, { type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { SourceAccessError } from '../../domain/sources/remote-folder';
import { checkLiteralHost } from './address-policy';
// Type only: the options are WebDavFolders' own; nothing of webdav-client.ts runs here.
import type { WebDavFoldersOptions } from './options';

/** Small unread bodies are read to the end so the keep-alive socket goes back to the pool; big ones cost a socket. */
const DRAIN_LIMIT_BYTES = 64 * 1024;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** What every exchange of one `WebDavFolders` shares: its options, keep-alive agents and guarded lookup. */
export interface Transport {
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
export const shown = (url: URL): string => `${url.protocol}//${url.host}${url.pathname}`;

/** Ends a response nobody reads, keeping its socket for reuse when that is cheap. */
export const discard = (response: IncomingMessage): void => {
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

/** OpenSSL's and node's codes for a certificate the client does not trust (node's `tls` errors). */
const UNTRUSTED_CERTIFICATE = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_REVOKED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** Any failure on the wire → SourceAccessError; an abort stays the signal's reason. */
const toAccessError = (error: unknown, url: URL, signal?: AbortSignal): unknown => {
  if (signal?.aborted) return signal.reason;
  if (error instanceof SourceAccessError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  if (code === 'ETIMEDOUT') return new SourceAccessError('timeout', `${shown(url)}: the connection timed out.`);
  if (UNTRUSTED_CERTIFICATE.has(code)) {
    return new SourceAccessError('untrusted_certificate', `${shown(url)}: the server's TLS certificate is not trusted (${code}).`);
  }
  const reason =
    NETWORK_REASONS[code] ??
    (/TLS|SSL|CERT|SELF_SIGNED|VERIFY/.test(code) ? `TLS failure (${code})` : code ? code : 'the connection failed');
  return new SourceAccessError('unreachable', `${shown(url)}: ${reason}.`);
};

/** An HTTP status that is not the answer wanted → the SourceAccessError a user can act on; `what` names the target. */
export const statusError = (status: number, url: URL, what: string): SourceAccessError => {
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
export const send = async (transport: Transport, first: Exchange): Promise<{ response: IncomingMessage; url: URL }> => {
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
export async function* streamBody(transport: Transport, response: IncomingMessage, url: URL, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
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
