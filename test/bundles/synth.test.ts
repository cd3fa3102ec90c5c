import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, inject, it } from 'vitest';

/**
 * `cdk synth` as a user runs it: offline, bundling every function with esbuild (no Docker). The project's global
 * setup synthesizes once per run; this file reads what it wrote.
 */
describe('cdk synth', () => {
  const out = inject('bundles').cdkOut;

  it('writes both stack templates', () => {
    expect(existsSync(join(out, 'DocService-Stateful.template.json'))).toBe(true);
    expect(existsSync(join(out, 'DocService-Api.template.json'))).toBe(true);
  });

  it('bundles every function into an ES module asset', () => {
    const template = JSON.parse(readFileSync(join(out, 'DocService-Api.template.json'), 'utf8'));
    type Resource = { Type: string; Properties: { Handler?: string; Runtime?: string }; Metadata?: Record<string, string> };
    // CDK's AwsCustomResource runs as one singleton function of its own (a CommonJS bundle), under this id.
    const awsCustomResource = 'AWS679f53fac002430cb0da5b7982bd2287';
    const functionAssets = Object.entries<Resource>(template.Resources)
      // Ours, not the custom-resource frameworks' own functions (nor CDK's Python BucketDeployment handler).
      .filter(
        ([id, resource]) =>
          resource.Type === 'AWS::Lambda::Function' &&
          resource.Properties.Handler === 'index.handler' &&
          String(resource.Properties.Runtime).startsWith('nodejs') &&
          !id.startsWith(awsCustomResource),
      )
      .map(([, resource]) => resource.Metadata?.['aws:asset:path'])
      .filter((path): path is string => Boolean(path));

    expect(functionAssets.length).toBeGreaterThanOrEqual(7);
    for (const asset of functionAssets) expect(readdirSync(join(out, asset))).toContain('index.mjs');
  });

  /** The asset's files a cold start loads: index.mjs and the chunks it imports statically, transitively. */
  const staticallyLoaded = (asset: string): string[] => {
    const loaded = ['index.mjs'];
    for (let i = 0; i < loaded.length; i++) {
      const file = loaded[i]!;
      const source = readFileSync(join(asset, file), 'utf8');
      for (const [, target] of source.matchAll(/(?:from|import)\s*"(\.\.?\/[^"]+\.mjs)"/g)) {
        const resolved = join(dirname(file), target!).replace(/^\.\//, '');
        if (!loaded.includes(resolved)) loaded.push(resolved);
      }
    }
    return loaded;
  };

  const assetOf = (logicalIdPrefix: string): string => {
    const template = JSON.parse(readFileSync(join(out, 'DocService-Api.template.json'), 'utf8'));
    type Resource = { Type: string; Properties: { Handler?: string }; Metadata?: Record<string, string> };
    const asset = Object.entries<Resource>(template.Resources).find(
      ([id, resource]) => id.startsWith(logicalIdPrefix) && resource.Type === 'AWS::Lambda::Function',
    )?.[1].Metadata?.['aws:asset:path'];
    if (!asset) throw new Error(`no function asset for ${logicalIdPrefix}`);
    return join(out, asset);
  };

  /** The ELF machine of a shared object: 0xb7 is AArch64, 0x3e x86-64. */
  const elfMachine = (file: string): number => {
    const header = readFileSync(file).subarray(0, 20);
    expect([...header.subarray(0, 4)]).toEqual([0x7f, 0x45, 0x4c, 0x46]);
    return header.readUInt16LE(18);
  };

  it.each(['DocumentsFunction', 'OcrWorkerFunction'])(
    'ships the imaging worker with pdf.js data and the arm64 canvas binary in the %s asset',
    (logicalIdPrefix) => {
      const asset = assetOf(logicalIdPrefix);

      expect(readdirSync(asset)).toEqual(expect.arrayContaining(['index.mjs', 'thumbnail-worker.mjs', 'pdfjs', 'node_modules']));
      for (const folder of ['standard_fonts', 'cmaps', 'wasm', 'iccs']) expect(readdirSync(join(asset, 'pdfjs', folder)).length).toBeGreaterThan(0);
      expect(readdirSync(join(asset, 'pdfjs', 'standard_fonts'))).toContain('LiberationSans-Regular.ttf');
      expect(readdirSync(join(asset, 'node_modules', '@napi-rs', 'canvas'))).toEqual(expect.arrayContaining(['package.json', 'index.js', 'js-binding.js']));
      const binary = join(asset, 'node_modules', '@napi-rs', 'canvas-linux-arm64-gnu', 'skia.linux-arm64-gnu.node');
      expect(elfMachine(binary)).toBe(0xb7);
      // The worker bundles pdf.js and leaves the native canvas to node_modules.
      const worker = readFileSync(join(asset, 'thumbnail-worker.mjs'), 'utf8');
      expect(worker).toContain('WorkerMessageHandler');
      expect(worker).toMatch(/from\s*"@napi-rs\/canvas"/);
    },
  );

  it('runs the imaging functions on arm64, the architecture of the canvas binary they ship', () => {
    const template = JSON.parse(readFileSync(join(out, 'DocService-Api.template.json'), 'utf8'));
    type Resource = { Type: string; Properties: { Architectures?: string[] } };
    const imaging = Object.entries<Resource>(template.Resources).filter(
      ([id, resource]) => /^(DocumentsFunction|OcrWorkerFunction)/.test(id) && resource.Type === 'AWS::Lambda::Function',
    );

    expect(imaging).toHaveLength(2);
    for (const [, resource] of imaging) expect(resource.Properties.Architectures).toEqual(['arm64']);
  });

  it.each([
    ['AuthFunction', 'auth'],
    ['DocumentsFunction', 'documents'],
  ])("maps the %s bundle to this repository's sources only", (logicalIdPrefix, group) => {
    const map = JSON.parse(readFileSync(join(assetOf(logicalIdPrefix), 'index.mjs.map'), 'utf8')) as { sources: string[] };

    expect(map.sources.some((source) => source.endsWith(`functions/${group}/handler.ts`))).toBe(true);
    expect(map.sources.filter((source) => source.includes('node_modules/'))).toEqual([]);
  });

  it('keeps openid-client out of what the auth function loads at a cold start, in a chunk of its own', () => {
    const asset = assetOf('AuthFunction');
    const chunks = readdirSync(join(asset, 'chunks')).filter((file) => file.endsWith('.mjs'));
    const oidcChunk = chunks.find((file) => file.startsWith('openid-client-oidc-'));

    expect(oidcChunk).toBeDefined();
    expect(readFileSync(join(asset, 'index.mjs'), 'utf8')).toContain(`import("./chunks/${oidcChunk}")`);
  });

  // The journeys run the documents function's chunks; these load theirs at an OIDC login, a file step or a hand-back.
  it.each(['AuthFunction', 'SourceSync', 'OcrWorker'])('loads every chunk of the %s asset in a fresh node', (logicalIdPrefix) => {
    const asset = assetOf(logicalIdPrefix);
    const chunks = readdirSync(join(asset, 'chunks')).filter((file) => file.endsWith('.mjs'));

    // Each chunk imports the chunks it shares with others by relative path: all of them load from the asset.
    const failed = chunks
      .map((chunk) => ({
        chunk,
        loaded: spawnSync(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(join(asset, 'chunks', chunk)).href)})`], {
          encoding: 'utf8',
        }),
      }))
      .filter(({ loaded }) => loaded.status !== 0)
      .map(({ chunk, loaded }) => `${chunk}: ${loaded.stderr}`);

    expect(chunks.length).toBeGreaterThan(0);
    expect(failed).toEqual([]);
  });

  /** The files of an asset that hold `marker`, among those a cold start loads or among the chunks only import() loads. */
  const holding = (asset: string, marker: string) => {
    const loaded = staticallyLoaded(asset);
    const lazy = readdirSync(join(asset, 'chunks'))
      .map((file) => `chunks/${file}`)
      .filter((file) => file.endsWith('.mjs') && !loaded.includes(file));
    const withMarker = (files: string[]) => files.filter((file) => readFileSync(join(asset, file), 'utf8').includes(marker));
    return { atColdStart: withMarker(loaded), onFirstUse: withMarker(lazy) };
  };
  /** The S3 and SQS clients' service names, and a message of @fastify/busboy's (the multipart parser). */
  const S3_CLIENT = '"AmazonS3"';
  const SQS_CLIENT = '"AmazonSQS"';
  const BUSBOY = 'Multipart: Boundary not found';

  it.each([
    ['S3 client', S3_CLIENT, 'DocumentsFunction', 'the routes that reach the bucket'],
    ['S3 client', S3_CLIENT, 'SourceSync', 'the file steps'],
    ['SQS client', SQS_CLIENT, 'OcrWorker', 'a job handed back to the queue'],
    ['multipart parser', BUSBOY, 'DocumentsFunction', 'the upload routes'],
  ])('keeps the %s out of what the %s loads at a cold start, for %s to load', (_what, marker, logicalIdPrefix) => {
    const found = holding(assetOf(logicalIdPrefix), marker);

    expect(found.atColdStart).toEqual([]);
    expect(found.onFirstUse).not.toEqual([]);
  });

  it('ships neither the API contract generator nor its documents in any function', () => {
    // Arrange: every function asset's script files, and a string each of the generator, its docs and the UI carry.
    const functionAssets = readdirSync(out)
      .filter((entry) => entry.startsWith('asset.') && existsSync(join(out, entry, 'index.mjs')))
      .map((entry) => join(out, entry));
    const scripts = functionAssets.flatMap((asset) => [
      join(asset, 'index.mjs'),
      ...(existsSync(join(asset, 'chunks')) ? readdirSync(join(asset, 'chunks')).filter((file) => file.endsWith('.mjs')).map((file) => join(asset, 'chunks', file)) : []),
    ]);
    const markers = ['x-api-version', 'The HTTP API of docservice', 'SwaggerUIBundle'];

    // Act
    const carrying = scripts.filter((file) => markers.some((marker) => readFileSync(file, 'utf8').includes(marker)));

    // Assert
    expect(functionAssets.length).toBeGreaterThanOrEqual(7);
    expect(carrying).toEqual([]);
  });

  it('ships no imaging files with functions that do not render', () => {
    const auth = readdirSync(assetOf('AuthFunction'));

    expect(auth).not.toContain('thumbnail-worker.mjs');
    expect(auth).not.toContain('node_modules');
  });
});
