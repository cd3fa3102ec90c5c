import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { extname, join } from 'node:path';
import {
  CONSOLE_ASSET_CACHE_CONTROL,
  CONSOLE_ASSETS_PREFIX,
  CONSOLE_CONTENT_TYPES,
  CONSOLE_PAGE_CACHE_CONTROL,
  CONSOLE_SECURITY_HEADERS,
  consoleCsp,
} from '../../web/site';

/**
 * The web console's static files (web/dist, built by web/build.ts), answered by the local gateway before any
 * route is matched: `/` and `/index.html` (the page, `no-cache`, with the console's CSP) and `/assets/<name>`
 * (hashed, `immutable`). Anything else goes on to the routes, so the API keeps its paths.
 */
export interface ConsoleSite {
  answer(method: string, path: string, headers: IncomingHttpHeaders): Promise<ConsoleAnswer | null>;
}

/** A static answer, written as it is (a HEAD's body is dropped by Node); 503 when the console is not built. */
export interface ConsoleAnswer {
  status: 200 | 304 | 503;
  headers: Record<string, string>;
  body: Buffer;
}

/** An asset's name: hashed by the build, never a path. */
const ASSET_NAME = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9]+)+$/;

const NOT_BUILT = Buffer.from(
  'The web console is not built. Run `node --import tsx web/build.ts` (scripts/ensure-deps.sh does it), then reload.\n',
);

interface Loaded {
  version: string;
  body: Buffer;
  etag: string;
}

/**
 * Serves `directory` (web/dist by default). `uploadOrigins` are where the page may send presigned uploads
 * (locally the S3 emulator), named in its CSP. Files are read again once they changed on disk (a rebuild).
 */
export function createConsoleSite(options: { directory: string; uploadOrigins?: string[] }): ConsoleSite {
  const csp = consoleCsp(options.uploadOrigins ?? []);
  const loaded = new Map<string, Loaded>();

  async function load(file: string): Promise<Loaded | null> {
    const stats = await stat(file).catch(() => null);
    if (!stats?.isFile()) return null;
    const version = `${stats.size}:${stats.mtimeMs}`;
    const known = loaded.get(file);
    if (known?.version === version) return known;
    const body = await readFile(file).catch(() => null);
    if (!body) return null;
    const fresh = { version, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
    loaded.set(file, fresh);
    return fresh;
  }

  return {
    async answer(method, path, headers) {
      if (method !== 'GET' && method !== 'HEAD') return null;
      const page = path === '/' || path === '/index.html';
      const assetName = path.startsWith(CONSOLE_ASSETS_PREFIX) ? path.slice(CONSOLE_ASSETS_PREFIX.length) : null;
      if (!page && !(assetName && ASSET_NAME.test(assetName))) return null;
      const file = page ? join(options.directory, 'index.html') : join(options.directory, 'assets', assetName!);
      const content = await load(file);
      if (!content) {
        if (!page) return null;
        return {
          status: 503,
          headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'content-length': String(NOT_BUILT.length) },
          body: NOT_BUILT,
        };
      }
      const caching = { 'cache-control': page ? CONSOLE_PAGE_CACHE_CONTROL : CONSOLE_ASSET_CACHE_CONTROL, etag: content.etag };
      if (headers['if-none-match']?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === content.etag)) {
        return { status: 304, headers: caching, body: Buffer.alloc(0) };
      }
      return {
        status: 200,
        headers: {
          'content-type': CONSOLE_CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
          'content-length': String(content.body.length),
          ...caching,
          ...CONSOLE_SECURITY_HEADERS,
          ...(page ? { 'content-security-policy': csp } : {}),
        },
        body: content.body,
      };
    },
  };
}
