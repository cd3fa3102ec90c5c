import { cpSync, mkdirSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CANVAS_PLATFORM_PACKAGES, nativePackageDir, type LambdaArchitecture } from '../constructs/native-packages';
import { bundleLambdaEntrySync } from './lambda-bundle';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NODE_MODULES = path.join(REPO_ROOT, 'node_modules');

/** The files of `@napi-rs/canvas` that its `require` loads (the rest of the package is types and docs). */
const CANVAS_FILES = ['package.json', 'index.js', 'js-binding.js', 'geometry.js', 'load-image.js', 'node-canvas.js', 'LICENSE'];

/** pdf.js's data: fonts for PDFs that do not embed theirs, character maps, its decoders' WebAssembly, colour profiles. */
export const PDFJS_DATA_FOLDERS = ['standard_fonts', 'cmaps', 'wasm', 'iccs'];

/**
 * Adds to an imaging function's asset what its thumbnail renderer and PDF text-layer reader load at run time:
 * - `thumbnail-worker.mjs`: the worker process that runs pdf.js, bundled on its own beside `index.mjs`;
 * - `pdfjs/{standard_fonts,cmaps,wasm,iccs}/` ({@link PDFJS_DATA_FOLDERS});
 * - `node_modules/@napi-rs/canvas/` and the platform package with the `.node` binary (Skia) for `architecture`:
 *   a native module is not bundled, and both the worker and pdf.js `require` it. The binary comes from
 *   node_modules when this machine has that architecture, else from a copy checked against package-lock.json
 *   (lib/constructs/native-packages.ts).
 */
export function addImagingFiles(assetDir: string, architecture: LambdaArchitecture): void {
  bundleLambdaEntrySync({
    entry: 'shared/adapters/imaging/render-worker.ts',
    outfile: path.join(assetDir, 'thumbnail-worker.mjs'),
    external: ['@napi-rs/canvas'],
  });
  for (const folder of PDFJS_DATA_FOLDERS) {
    cpSync(path.join(NODE_MODULES, 'pdfjs-dist', folder), path.join(assetDir, 'pdfjs', folder), { recursive: true });
  }
  const canvas = path.join(assetDir, 'node_modules', '@napi-rs', 'canvas');
  mkdirSync(canvas, { recursive: true });
  for (const file of CANVAS_FILES) cpSync(path.join(NODE_MODULES, '@napi-rs', 'canvas', file), path.join(canvas, file));
  const native = nativePackageDir(architecture);
  const platformPackage = path.join(assetDir, 'node_modules', CANVAS_PLATFORM_PACKAGES[architecture]);
  mkdirSync(platformPackage, { recursive: true });
  for (const file of readdirSync(native).filter((name) => name === 'package.json' || name.endsWith('.node'))) {
    cpSync(path.join(native, file), path.join(platformPackage, file));
  }
}
