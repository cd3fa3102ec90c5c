/**
 * How the console is served, the same locally (shared/local/console-site.ts) and at the CloudFront edge
 * (lib/constructs/console-site.ts): its headers, its cache rules and which paths are its own.
 */

import { fileURLToPath } from 'node:url';

/** Where web/build.ts writes the console and the local runtime serves it from. */
export const CONSOLE_DIST = fileURLToPath(new URL('./dist', import.meta.url));

/** Hashed assets never change under their name. */
export const CONSOLE_ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** The page is checked every time, so that a deployment is seen at the next load. */
export const CONSOLE_PAGE_CACHE_CONTROL = 'no-cache';
/** The folder of the hashed assets, under the site's root. */
export const CONSOLE_ASSETS_PREFIX = '/assets/';

/**
 * The console's Content-Security-Policy: scripts and styles from this origin only (no inline script, no
 * eval), images from this origin and the object URLs of thumbnails, requests to this origin (the API and its
 * WebSocket) and to `uploadOrigins` (where presigned uploads go), no frames, no plugins, no base change.
 */
export function consoleCsp(uploadOrigins: readonly string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' blob: data:",
    `connect-src 'self'${uploadOrigins.map((origin) => ` ${origin}`).join('')}`,
    "font-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

/** Headers every answer of the console carries besides its CSP. */
export const CONSOLE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
};

export const CONSOLE_CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};
