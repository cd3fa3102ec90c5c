/** Which code an imaging worker process runs: the bundled file beside a Lambda's index.mjs, or the source through tsx. */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** File name of the bundled worker that the Lambda bundling writes next to the function's `index.mjs`. */
export const BUNDLED_WORKER_FILE = 'thumbnail-worker.mjs';

/**
 * What the worker imports from node_modules, all JavaScript already. pdf-lib's fork (`@cantoo/pdf-lib`) is named by
 * its public entry: its `exports` map hides its single-file bundles, and the ES build the entry names is the
 * module the worker's code imports, so loading it here is what spares tsx's transform.
 */
const PLAIN_JS_LIBRARIES = ['pdfjs-dist/legacy/build/pdf.min.mjs', 'pdfjs-dist/legacy/build/pdf.worker.min.mjs', '@cantoo/pdf-lib', 'utif2', '@napi-rs/canvas'];

/** tsx's ESM API file, from its export map (`require.resolve` would pick the CommonJS build). */
const tsxEsmApiPath = (): string => {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import?: { default?: string } }> };
  return path.join(path.dirname(manifest), exports['./esm/api']?.import?.default ?? 'dist/esm/api/index.mjs');
};

/**
 * The arguments to `node` that start a worker: `thumbnail-worker.mjs` beside this module once bundled (the Lambda
 * asset), else `render-worker.ts` from source through tsx's loader (local runtime, tests), registered only after
 * the plain-JavaScript libraries are loaded.
 */
export const workerEntry = (): string[] => {
  const bundled = new URL(`./${BUNDLED_WORKER_FILE}`, import.meta.url);
  if (existsSync(fileURLToPath(bundled))) return [fileURLToPath(bundled)];
  const tsxApi = pathToFileURL(tsxEsmApiPath()).href;
  const source = new URL('./render-worker.ts', import.meta.url).href;
  // The libraries are plain JavaScript: loaded before tsx's loader is registered, they skip its transform (seconds
  // for pdf.js on every worker start, and a worker is replaced after each failed job).
  const libraries = JSON.stringify(PLAIN_JS_LIBRARIES.map((specifier) => import.meta.resolve(specifier)));
  return [
    '--input-type=module',
    '--eval',
    `await Promise.all(${libraries}.map((url) => import(url)));` +
      `const tsx = await import(${JSON.stringify(tsxApi)}); tsx.register(); await import(${JSON.stringify(source)});`,
  ];
};
