import * as path from 'node:path';
import { build } from 'esbuild';
import { LAMBDA_ESBUILD_ALIASES } from '../../lib/constructs/app-function';

const ROOT = path.resolve(import.meta.dirname, '../..');
const bundled = new Map<string, Promise<string[]>>();

/**
 * The inputs that put code into a function's bundle, bundled as the CDK bundles it (lib/constructs/app-function.ts:
 * ESM, minified, the SDK inside, its aliases); tree-shaken modules contribute no bytes and are left out. Each
 * function is bundled once per test file.
 */
export function bundledInputsOf(group: string): Promise<string[]> {
  let inputs = bundled.get(group);
  if (!inputs) bundled.set(group, (inputs = bundle(group)));
  return inputs;
}

async function bundle(group: string): Promise<string[]> {
  const result = await build({
    entryPoints: [path.join(ROOT, 'functions', group, 'index.ts')],
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    outdir: path.join(ROOT, 'cdk.out', 'bundle-inputs-test'),
    platform: 'node',
    format: 'esm',
    target: 'node22',
    mainFields: ['module', 'main'],
    minify: true,
    alias: { ...LAMBDA_ESBUILD_ALIASES },
    metafile: true,
    logLevel: 'silent',
  });
  return Object.values(result.metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs)
      .filter(([, input]) => input.bytesInOutput > 0)
      .map(([name]) => name),
  );
}
