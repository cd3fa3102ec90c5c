import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleLambdaEntry, lambdaBuildOptions } from '../../lib/bundling/lambda-bundle';
import { inlineSchemaKeys } from '../../lib/bundling/pure-sdk-schemas';
import { decodeMappings, type SourceMapV3 } from '../../lib/bundling/source-map-pruning';

/*
 * The SDK's generated schemas key their traits by constants (`{ [_hH]: _xaebo }`), which esbuild cannot prove
 * free of side effects, so every schema of a client stayed in each bundle that used the client. The Lambda
 * bundles load those modules with the keys inlined (lib/bundling/pure-sdk-schemas.ts): these check that the
 * installed SDK still has that shape, that the inlined modules mean the same, and that unused schemas now go.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const SDK = path.join(ROOT, 'node_modules', '@aws-sdk');
const S3_SCHEMAS = path.join(SDK, 'client-s3', 'dist-es', 'schemas', 'schemas_0.js');
const work = mkdtempSync(path.join(tmpdir(), 'lambda-bundling-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const schemaModules = readdirSync(SDK)
  .filter((name) => name.startsWith('client-'))
  .flatMap((client) => {
    const dir = path.join(SDK, client, 'dist-es', 'schemas');
    try {
      return readdirSync(dir).filter((file) => /^schemas_\d+\.js$/.test(file)).map((file) => path.join(dir, file));
    } catch {
      return [];
    }
  });

/** Bundles a module that re-exports `target`'s schemas, with or without the Lambda bundles' options, and imports it. */
async function importSchemas(target: string, name: string, asLambdas: boolean): Promise<Record<string, unknown>> {
  const entry = path.join(work, `${name}.entry.mjs`);
  writeFileSync(entry, `export * from ${JSON.stringify(target)};\n`);
  const outfile = path.join(work, `${name}.mjs`);
  const options = asLambdas
    ? lambdaBuildOptions({ entry, outfile })
    : { entryPoints: [entry], outfile, bundle: true, platform: 'node' as const, format: 'esm' as const, mainFields: ['module', 'main'] };
  await build({ ...options, sourcemap: false, logLevel: 'silent' });
  return (await import(pathToFileURL(outfile).href)) as Record<string, unknown>;
}

/** The text of a minified Lambda bundle of `source`, with the Lambda bundles' options. */
async function lambdaBundleOf(name: string, source: string): Promise<string> {
  const entry = path.join(work, `${name}.entry.ts`);
  writeFileSync(entry, source);
  const outfile = path.join(work, `${name}.mjs`);
  const result = await build({ ...lambdaBuildOptions({ entry, outfile }), write: false, sourcemap: false, logLevel: 'silent' });
  return result.outputFiles!.find((output) => output.path === outfile)!.text;
}

describe('the source maps of the Lambda bundles', () => {
  it("map the repository's code to the same places as esbuild's whole map, and a dependency's code to no source", async () => {
    const entry = path.join(ROOT, 'functions', 'fallback', 'index.ts');
    const whole = path.join(work, 'whole', 'index.mjs');
    await build({ ...lambdaBuildOptions({ entry, outfile: whole }), logLevel: 'silent' });
    const pruned = path.join(work, 'pruned', 'index.mjs');

    await bundleLambdaEntry({ entry, outfile: pruned });

    const wholeMap = JSON.parse(readFileSync(`${whole}.map`, 'utf8')) as SourceMapV3;
    const prunedMap = new SourceMap(JSON.parse(readFileSync(`${pruned}.map`, 'utf8')));
    const lookups = decodeMappings(wholeMap.mappings).flatMap((segments, line) =>
      segments.map((segment) => {
        const expected = segment.length === 1 || wholeMap.sources[segment[1]]!.includes('node_modules/') ? undefined : wholeMap.sources[segment[1]];
        const found = prunedMap.findEntry(line, segment[0]) as { originalSource?: string; originalLine?: number; originalColumn?: number };
        const same = expected === undefined ? found.originalSource === undefined : found.originalSource?.endsWith(expected.replace(/^(\.\.\/)+/, '')) && found.originalLine === segment[2] && found.originalColumn === segment[3];
        return { line, column: segment[0], expected, found: found.originalSource, same };
      }),
    );
    expect(lookups.filter((lookup) => lookup.expected !== undefined).length).toBeGreaterThan(100);
    expect(lookups.filter((lookup) => lookup.expected === undefined).length).toBeGreaterThan(100);
    expect(lookups.filter((lookup) => !lookup.same)).toEqual([]);
  });
});

describe('the SDK schemas in the Lambda bundles', () => {
  it('finds the generated schema modules of the installed clients', () => {
    expect(schemaModules.map((file) => path.relative(SDK, file))).toEqual(expect.arrayContaining([path.join('client-s3', 'dist-es', 'schemas', 'schemas_0.js')]));
  });

  it('leaves no computed key in any installed client schema module once its keys are inlined', () => {
    const leftOver = schemaModules.filter((file) => /\[_\w+\]:/.test(inlineSchemaKeys(readFileSync(file, 'utf8'))));

    expect(leftOver).toEqual([]);
  });

  it('loads the S3 schemas with inlined keys as the same values as the original module', async () => {
    const original = await importSchemas(S3_SCHEMAS, 's3-original', false);

    const inlined = await importSchemas(S3_SCHEMAS, 's3-inlined', true);

    expect(Object.keys(inlined).sort()).toEqual(Object.keys(original).sort());
    const differing = Object.keys(original).filter((name) => JSON.stringify(inlined[name]) !== JSON.stringify(original[name]));
    expect(differing).toEqual([]);
  });

  it('drops the schemas of the S3 operations a bundle never sends', async () => {
    const text = await lambdaBundleOf(
      'put-object',
      `import { PutObjectCommand, S3Client } from ${JSON.stringify(path.join(SDK, 'client-s3'))};\n` +
        "export const put = () => new S3Client({}).send(new PutObjectCommand({ Bucket: 'b', Key: 'k' }));\n",
    );

    expect(text).toContain('"PutObjectRequest"');
    expect(text).not.toContain('"DeleteBucketCorsRequest"');
  });
});
