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
 * `node:process` by the global's members, since Node's module view of it costs a cold start some 6 ms (see
 * shared/adapters/node/process-exports.ts).
 */
export const LAMBDA_ESBUILD_ALIASES: Readonly<Record<string, string>> = {
  '@aws-sdk/credential-provider-node': path.join(REPO_ROOT, 'shared', 'adapters', 'aws', 'lambda-credentials.ts'),
  'node:process': path.join(REPO_ROOT, 'shared', 'adapters', 'node', 'process-exports.ts'),
};

/** What to bundle into one file of a Lambda asset. */
export interface LambdaEntry {
  /** The module to bundle, e.g. `functions/auth/index.ts` (relative to the repository, or absolute). */
  readonly entry: string;
  /** The bundle's path (its source map is written beside it). */
  readonly outfile: string;
  /** Packages the asset carries as files rather than in the bundle (a native module). @default none */
  readonly external?: readonly string[];
}

/**
 * The esbuild options of every file the Lambdas run: one ES module for Node.js 22, minified, with the AWS SDK
 * inside (the runtime's copy is not pinned), a source map without the sources (a third the size; node parses it
 * at every cold start), the aliases of {@link LAMBDA_ESBUILD_ALIASES} and the SDK schemas made tree-shakeable
 * (lib/bundling/pure-sdk-schemas.ts). The CDK, the bench and the bundle tests all bundle with these.
 */
export function lambdaBuildOptions({ entry, outfile, external = [] }: LambdaEntry): BuildOptions & { metafile: true } {
  return {
    entryPoints: [path.resolve(REPO_ROOT, entry)],
    outfile,
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

/** A source of a bundle's map that is a dependency's, not this repository's. */
const DEPENDENCY_SOURCE = /(^|\/)node_modules\//;

/**
 * Bundles one file of a Lambda asset ({@link lambdaBuildOptions}) and keeps in its source map the repository's
 * sources only (lib/bundling/source-map-pruning.ts): node reads the map at every cold start, and a stack frame in
 * a dependency shows the bundle's position instead. Resolves to esbuild's account of the bundle's inputs.
 */
export async function bundleLambdaEntry(lambdaEntry: LambdaEntry): Promise<Metafile> {
  const { metafile } = await build(lambdaBuildOptions(lambdaEntry));
  const mapFile = `${lambdaEntry.outfile}.map`;
  const map = JSON.parse(await readFile(mapFile, 'utf8')) as SourceMapV3;
  await writeFile(mapFile, JSON.stringify(pruneSourceMap(map, (source) => !DEPENDENCY_SOURCE.test(source))));
  return metafile;
}
