import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { pureSdkSchemas } from './pure-sdk-schemas';
import { pruneSourceMap, type SourceMapV3 } from './source-map-pruning';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The bundle is ESM, but some bundled CommonJS dependencies still call `require` for node builtins;
 * esbuild's ESM output has no `require`, so one is defined from `import.meta.url`.
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __docserviceCreateRequire } from 'node:module'; " +
  'const require = __docserviceCreateRequire(import.meta.url);';

/**
 * Modules the Lambda bundles replace (esbuild `alias`): the SDK's default credential chain by the environment
 * provider, since a Lambda's credentials are in its environment (see shared/adapters/aws/lambda-credentials.ts), and
 * `node:process` (the SDK's user agent) and `process` (OpenTelemetry's machine-id detectors) by the global's members,
 * since building Node's module view of it is a measurable part of a cold start (see shared/adapters/node/process-exports.ts).
 */
export const LAMBDA_ESBUILD_ALIASES: Readonly<Record<string, string>> = {
  '@aws-sdk/credential-provider-node': path.join(REPO_ROOT, 'shared', 'adapters', 'aws', 'lambda-credentials.ts'),
  'node:process': path.join(REPO_ROOT, 'shared', 'adapters', 'node', 'process-exports.ts'),
  process: path.join(REPO_ROOT, 'shared', 'adapters', 'node', 'process-exports.ts'),
};

/** What to bundle into one file of a Lambda asset. */
export interface LambdaEntry {
  /** The module to bundle, e.g. `functions/auth/index.ts` (relative to the repository, or absolute). */
  readonly entry: string;
  /** The bundle's path, ending in `.mjs` (its source map beside it, its lazily loaded chunks in `chunks/`). */
  readonly outfile: string;
  /** Packages the asset carries as files rather than in the bundle (a native module). @default none */
  readonly external?: readonly string[];
}

/** Where the code that an entry's `import()`s load goes, beside the entry (and shared by an asset's entries). */
export const LAMBDA_CHUNKS_DIR = 'chunks';

/**
 * The esbuild options of every file the Lambdas run: an ES module for Node.js 22, minified, with the AWS SDK
 * inside (the runtime's copy is not pinned), a source map without the sources (a third the size; node parses it
 * at every cold start), the aliases of {@link LAMBDA_ESBUILD_ALIASES} and the SDK schemas made tree-shakeable
 * (lib/bundling/pure-sdk-schemas.ts). What is reached only through `import()` (openid-client in auth, the SDK's
 * browser user-agent parser, its event streams) is split into chunks in {@link LAMBDA_CHUNKS_DIR}, which node
 * compiles when they are first imported, not at every cold start. The CDK, the bench and the bundle tests all
 * bundle with these.
 */
export function lambdaBuildOptions({ entry, outfile, external = [] }: LambdaEntry): BuildOptions & { metafile: true } {
  if (!outfile.endsWith('.mjs')) throw new Error(`a Lambda bundle is an ES module file (.mjs): ${outfile}`);
  return {
    entryPoints: [path.resolve(REPO_ROOT, entry)],
    outdir: path.dirname(outfile),
    entryNames: path.basename(outfile, '.mjs'),
    outExtension: { '.js': '.mjs' },
    splitting: true,
    chunkNames: `${LAMBDA_CHUNKS_DIR}/[name]-[hash]`,
    absWorkingDir: REPO_ROOT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    minify: true,
    sourcemap: true,
    sourcesContent: false,
    mainFields: ['module', 'main'],
    banner: { js: ESM_REQUIRE_BANNER },
    external: [...external],
    alias: { ...LAMBDA_ESBUILD_ALIASES },
    plugins: [pureSdkSchemas],
    logLevel: 'warning',
    metafile: true,
  };
}

/**
 * {@link bundleLambdaEntry} in a child process (scripts/bundle-lambda.ts), for a caller that cannot await: a CDK
 * bundling hook is synchronous, and esbuild's plugins need its asynchronous API.
 */
export function bundleLambdaEntrySync({ entry, outfile, external = [] }: LambdaEntry): void {
  const script = path.join(REPO_ROOT, 'scripts', 'bundle-lambda.ts');
  execFileSync(process.execPath, ['--import', 'tsx', script, entry, outfile, ...external.map((name) => `--external=${name}`)], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  });
}

/** A source of a bundle's map that is a dependency's, not this repository's. */
const DEPENDENCY_SOURCE = /(^|\/)node_modules\//;

/**
 * Bundles one file of a Lambda asset ({@link lambdaBuildOptions}) and keeps in its source maps (the entry's and
 * its chunks') the repository's sources only (lib/bundling/source-map-pruning.ts): node reads a module's map when
 * it loads it, and a stack frame in a dependency shows the bundle's position instead. Resolves to esbuild's
 * account of the bundle's inputs and outputs.
 */
export async function bundleLambdaEntry(lambdaEntry: LambdaEntry): Promise<Metafile> {
  const { metafile } = await build(lambdaBuildOptions(lambdaEntry));
  const mapFiles = Object.keys(metafile.outputs).filter((output) => output.endsWith('.map'));
  for (const mapFile of mapFiles.map((output) => path.resolve(REPO_ROOT, output))) {
    const map = JSON.parse(await readFile(mapFile, 'utf8')) as SourceMapV3;
    await writeFile(mapFile, JSON.stringify(pruneSourceMap(map, (source) => !DEPENDENCY_SOURCE.test(source))));
  }
  return metafile;
}
