import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { API_DOCS_CACHE_CONTROL, apiDocsFileAt, apiDocsSourcePath, readApiDocsFile, type ApiDocsFile } from '../api-docs/files';
import { API_DOCS_SECURITY_HEADERS } from '../api-docs/swagger-ui-page';

/**
 * The local gateway's static answers: the API contract and its Swagger UI (the allow-list of
 * shared/api-docs/files.ts), public and cacheable, answered before any route is matched, so they are neither
 * rate-limited nor seen by a handler. Only GET and HEAD of a listed path are answered here; anything else
 * (another method, an unknown path under `/api-docs/` or `/swagger-ui/`) goes on to the gateway's fallback,
 * whose P 404 it gets like any unknown route.
 */

/** A static answer, written as it is (a HEAD's body is dropped by Node). */
export interface StaticAnswer {
  status: 200 | 304;
  headers: Record<string, string>;
  body: Buffer;
}

/** Serves the contract and the UI; see {@link createApiDocs}. */
export interface ApiDocs {
  /** The answer for a request, or null when the request is not one of ours. */
  answer(method: string, path: string, headers: IncomingHttpHeaders): Promise<StaticAnswer | null>;
}

interface Loaded {
  /** What the file on disk looked like when read (size and mtime), to read it again once it changed. */
  version: string;
  body: Buffer;
  etag: string;
}

/**
 * The contract and the UI's files, each read once and again only when it changed on disk (the contract is
 * regenerated while a runtime runs), with a strong ETag of its content.
 */
export function createApiDocs(): ApiDocs {
  const loaded = new Map<string, Loaded>();

  /** The file's bytes and ETag; null when it is not there (a contract not generated yet), which is a 404. */
  async function load(file: ApiDocsFile): Promise<Loaded | null> {
    const onDisk = apiDocsSourcePath(file.source);
    let version = 'text';
    if (onDisk) {
      const stats = await stat(onDisk).catch(() => null);
      if (!stats) return null;
      version = `${stats.size}:${stats.mtimeMs}`;
    }
    const known = loaded.get(file.path);
    if (known?.version === version) return known;
    const body = await readApiDocsFile(file).catch(() => null);
    if (!body) return null;
    const fresh = { version, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
    loaded.set(file.path, fresh);
    return fresh;
  }

  return {
    async answer(method, path, headers) {
      if (method !== 'GET' && method !== 'HEAD') return null;
      const file = apiDocsFileAt(path);
      const content = file && (await load(file));
      if (!file || !content) return null;
      const caching = { 'cache-control': API_DOCS_CACHE_CONTROL, etag: content.etag };
      if (matchesETag(headers['if-none-match'], content.etag)) return { status: 304, headers: caching, body: Buffer.alloc(0) };
      return {
        status: 200,
        headers: { 'content-type': file.contentType, 'content-length': String(content.body.length), ...caching, ...API_DOCS_SECURITY_HEADERS },
        body: content.body,
      };
    },
  };
}

/** RFC 9110's If-None-Match: `*` or a list of tags, compared weakly (a `W/` prefix does not matter). */
function matchesETag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
