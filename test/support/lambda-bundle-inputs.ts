import * as path from 'node:path';
import { build } from 'esbuild';
import { lambdaBuildOptions } from '../../lib/bundling/lambda-bundle';

const ROOT = path.resolve(import.meta.dirname, '../..');
interface BundleContents {
  /** The inputs that put code into the bundle. */
  inputs: string[];
  /** What the bundle imports at run time rather than carries (node's built-ins, the native canvas). */
  externalImports: string[];
}

const bundled = new Map<string, Promise<BundleContents>>();

/**
 * The inputs that put code into a function's bundle, bundled as the CDK bundles it (lib/bundling/lambda-bundle.ts:
 * ESM, minified, the SDK inside, its aliases and plugin); tree-shaken modules contribute no bytes and are left out. Each
 * function is bundled once per test file.
 */
export async function bundledInputsOf(group: string): Promise<string[]> {
  return (await contentsOf(group)).inputs;
}

/** The modules a function's bundle imports when it loads (`node:crypto`, ...), bundled as {@link bundledInputsOf}. */
export async function externalImportsOf(group: string): Promise<string[]> {
  return (await contentsOf(group)).externalImports;
}

function contentsOf(group: string): Promise<BundleContents> {
  let contents = bundled.get(group);
  if (!contents) bundled.set(group, (contents = bundle(group)));
  return contents;
}

async function bundle(group: string): Promise<BundleContents> {
  const result = await build({
    ...lambdaBuildOptions({ entry: path.join('functions', group, 'index.ts'), outfile: path.join(ROOT, 'cdk.out', 'bundle-inputs-test', group, 'index.mjs') }),
    write: false,
    logLevel: 'silent',
  });
  const outputs = Object.values(result.metafile.outputs);
  return {
    inputs: outputs.flatMap((output) =>
      Object.entries(output.inputs)
        .filter(([, input]) => input.bytesInOutput > 0)
        .map(([name]) => name),
    ),
    externalImports: outputs.flatMap((output) => output.imports.filter((imported) => imported.external).map((imported) => imported.path)),
  };
}
