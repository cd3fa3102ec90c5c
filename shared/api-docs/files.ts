import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OPENAPI_DOCUMENT_PATH, SWAGGER_UI_INITIALIZER, SWAGGER_UI_PAGE } from './swagger-ui-page';

/**
 * The allow-list of what is served beside the API: the contract (docs/api/*.json), our Swagger UI page and
 * initializer, and the two swagger-ui-dist files the page loads. The local runtime answers exactly these paths
 * (shared/local/api-docs.ts) and the cloud deploys exactly these files to its docs bucket
 * (lib/constructs/api-docs-site.ts); a path is looked up in this list, never mapped onto a folder.
 */

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Where a file's bytes come from. */
export type ApiDocsSource =
  /** A file of the repository, by its path from the root. */
  | { readonly kind: 'repository'; readonly path: string }
  /** A file of the swagger-ui-dist package, by its name there. */
  | { readonly kind: 'swagger-ui-dist'; readonly name: string }
  /** Text of ours (shared/api-docs/swagger-ui-page.ts). */
  | { readonly kind: 'text'; readonly text: string };

/** One served file. */
export interface ApiDocsFile {
  /** The URL path, which is also its object key in the cloud's docs bucket (without the leading slash). */
  readonly path: string;
  readonly contentType: string;
  readonly source: ApiDocsSource;
}

/** How long browsers and the edge may keep a file before asking again (with its ETag). */
export const API_DOCS_CACHE_CONTROL = 'public, max-age=300';

/** Every file served, by its canonical path. */
export const API_DOCS_FILES: readonly ApiDocsFile[] = [
  { path: OPENAPI_DOCUMENT_PATH, contentType: 'application/json', source: { kind: 'repository', path: 'docs/api/openapi.json' } },
  { path: '/api-docs/asyncapi.json', contentType: 'application/json', source: { kind: 'repository', path: 'docs/api/asyncapi.json' } },
  { path: '/swagger-ui/index.html', contentType: 'text/html; charset=utf-8', source: { kind: 'text', text: SWAGGER_UI_PAGE } },
  { path: '/swagger-ui/initializer.js', contentType: 'text/javascript; charset=utf-8', source: { kind: 'text', text: SWAGGER_UI_INITIALIZER } },
  { path: '/swagger-ui/swagger-ui.css', contentType: 'text/css; charset=utf-8', source: { kind: 'swagger-ui-dist', name: 'swagger-ui.css' } },
  {
    path: '/swagger-ui/swagger-ui-bundle.js',
    contentType: 'text/javascript; charset=utf-8',
    source: { kind: 'swagger-ui-dist', name: 'swagger-ui-bundle.js' },
  },
];

/**
 * Other paths for a file: profile L's path of the contract, and the UI's page without `index.html` (the address
 * the README gives).
 */
export const API_DOCS_ALIASES: Readonly<Record<string, string>> = {
  '/api/openapi.json': OPENAPI_DOCUMENT_PATH,
  '/swagger-ui': '/swagger-ui/index.html',
  '/swagger-ui/': '/swagger-ui/index.html',
};

const byPath = new Map(API_DOCS_FILES.map((file) => [file.path, file]));

/**
 * The paths of the contract and its UI, as CloudFront path patterns (a trailing `*`: any rest): the edge's docs
 * behaviours, and what the local gateway keeps to GET and HEAD. Together they cover every file and alias above.
 */
export const API_DOCS_PATH_PATTERNS = ['/api-docs/*', '/api/openapi.json', '/swagger-ui*'] as const;

/** Whether a path is under one of {@link API_DOCS_PATH_PATTERNS} (a file of the allow-list or not). */
export const isApiDocsPath = (path: string): boolean =>
  API_DOCS_PATH_PATTERNS.some((pattern) => (pattern.endsWith('*') ? path.startsWith(pattern.slice(0, -1)) : path === pattern));

/** The file a request path names, through its alias if it has one; undefined for any other path. */
export function apiDocsFileAt(path: string): ApiDocsFile | undefined {
  return byPath.get(Object.hasOwn(API_DOCS_ALIASES, path) ? API_DOCS_ALIASES[path]! : path);
}

/** The file on disk a source reads, or undefined for text of ours. */
export function apiDocsSourcePath(source: ApiDocsSource): string | undefined {
  switch (source.kind) {
    case 'repository':
      return join(REPO_ROOT, source.path);
    case 'swagger-ui-dist':
      return join(swaggerUiDistDir(), source.name);
    case 'text':
      return undefined;
  }
}

/** A file's bytes as served now: the repository's and the package's files are read from disk at each call. */
export async function readApiDocsFile(file: ApiDocsFile): Promise<Buffer> {
  const onDisk = apiDocsSourcePath(file.source);
  if (onDisk) return readFile(onDisk);
  return Buffer.from(file.source.kind === 'text' ? file.source.text : '', 'utf8');
}

let distDir: string | undefined;

/** swagger-ui-dist's folder, as Node resolves the package from here. */
function swaggerUiDistDir(): string {
  distDir ??= dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  return distDir;
}
