import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** `cdk synth` as a user runs it: offline, bundling every function with esbuild (no Docker). */
describe('cdk synth', () => {
  let out: string;

  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), 'cdk-out-'));
    execFileSync('npx', ['cdk', 'synth', '--quiet', '--output', out], {
      cwd: ROOT,
      stdio: 'pipe',
      env: { ...process.env, CDK_DISABLE_VERSION_CHECK: 'true' },
    });
  }, 180_000);

  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('writes both stack templates', () => {
    expect(existsSync(join(out, 'DocService-Stateful.template.json'))).toBe(true);
    expect(existsSync(join(out, 'DocService-Api.template.json'))).toBe(true);
  });

  it('bundles every function into an ES module asset', () => {
    const template = JSON.parse(readFileSync(join(out, 'DocService-Api.template.json'), 'utf8'));
    type Resource = { Type: string; Properties: { Handler?: string }; Metadata?: Record<string, string> };
    // CDK's AwsCustomResource runs as one singleton function of its own (a CommonJS bundle), under this id.
    const awsCustomResource = 'AWS679f53fac002430cb0da5b7982bd2287';
    const functionAssets = Object.entries<Resource>(template.Resources)
      // Ours, not the custom-resource frameworks' own functions.
      .filter(
        ([id, resource]) =>
          resource.Type === 'AWS::Lambda::Function' &&
          resource.Properties.Handler === 'index.handler' &&
          !id.startsWith(awsCustomResource),
      )
      .map(([, resource]) => resource.Metadata?.['aws:asset:path'])
      .filter((path): path is string => Boolean(path));

    expect(functionAssets.length).toBeGreaterThanOrEqual(7);
    for (const asset of functionAssets) expect(readdirSync(join(out, asset))).toContain('index.mjs');
  });

  it('ships the thumbnail worker and its WebAssembly modules with the documents function only', () => {
    const template = JSON.parse(readFileSync(join(out, 'DocService-Api.template.json'), 'utf8'));
    type Resource = { Type: string; Properties: { Handler?: string }; Metadata?: Record<string, string> };
    const assetOf = (logicalIdPrefix: string) =>
      Object.entries<Resource>(template.Resources).find(
        ([id, resource]) => id.startsWith(logicalIdPrefix) && resource.Type === 'AWS::Lambda::Function',
      )?.[1].Metadata?.['aws:asset:path'];

    const documents = readdirSync(join(out, assetOf('DocumentsFunction')!));
    const auth = readdirSync(join(out, assetOf('AuthFunction')!));

    expect(documents).toEqual(expect.arrayContaining(['index.mjs', 'thumbnail-worker.mjs', 'mupdf-wasm.wasm', 'webp_dec.wasm']));
    expect(auth).not.toContain('mupdf-wasm.wasm');
  });
});
