/**
 * Builds the console into web/dist: one ES module bundle and one stylesheet under `assets/`, named by the hash
 * of their content (served `immutable`), and `index.html` naming them (served `no-cache`). esbuild is the
 * root's; Preact comes from web/node_modules, the typed client from client/src.
 *
 *   node --import tsx web/build.ts
 */
import { buildSync } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONSOLE_DIST } from './site';

const WEB = fileURLToPath(new URL('.', import.meta.url));

/** What a build wrote: the page's asset paths (relative to dist/) and the first page's scripts. */
export interface ConsoleBuild {
  outDir: string;
  script: string;
  stylesheet: string;
}

/**
 * Builds the console into `outDir` (web/dist by default), replacing what was there. Synchronous, so that the
 * CDK app (lib/constructs/console-site.ts) can build it while it constructs the stack.
 */
export function buildConsole(outDir = CONSOLE_DIST): ConsoleBuild {
  rmSync(outDir, { recursive: true, force: true });
  const result = buildSync({
    entryPoints: [join(WEB, 'src/main.tsx'), join(WEB, 'src/styles.css')],
    outdir: join(outDir, 'assets'),
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    bundle: true,
    format: 'esm',
    target: ['es2022', 'chrome110', 'firefox115', 'safari16'],
    minify: true,
    sourcemap: false,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const outputs = Object.keys(result.metafile.outputs).map((file) => relative(outDir, file));
  const script = outputs.find((file) => file.endsWith('.js'));
  const stylesheet = outputs.find((file) => file.endsWith('.css'));
  if (!script || !stylesheet) throw new Error(`the console build wrote no script or stylesheet: ${outputs.join(', ')}`);
  const template = readFileSync(join(WEB, 'src/index.html'), 'utf8');
  const page = template.replace('%SCRIPT%', `/${script}`).replace('%STYLESHEET%', `/${stylesheet}`);
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'index.html'), page);
  return { outDir, script, stylesheet };
}

if (process.argv[1] && basename(process.argv[1]) === 'build.ts') {
  const built = buildConsole(process.argv[2] ?? CONSOLE_DIST);
  console.log(`console built into ${built.outDir}: ${built.script}, ${built.stylesheet}`);
}
