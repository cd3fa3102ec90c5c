import * as path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/*
 * openid-client is for the auth function only: every other Lambda bundle must leave it out (issue 15). esbuild
 * puts a dynamically imported module in the bundle of whoever reaches the import, so what keeps it out is that
 * only the auth function's composition root (shared/container/aws-auth.ts) reaches lazy-openid-client.ts.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
/**
 * One function per way of building the app container (bundling all sixteen takes a minute on two cores):
 * awsAppContainer (users), with the search parts (documents), tokenlessContainer (ocr-worker) and
 * awsRealtimeContainer (realtime). bench/lambda-bundles.ts reports every bundle.
 */
const OTHERS = ['users', 'documents', 'ocr-worker', 'realtime'];
const OIDC_INPUT = /node_modules\/(openid-client|oauth4webapi)\/|shared\/adapters\/oidc\/openid-client-oidc\.ts$/u;

/** The inputs of a function's bundle, as the CDK bundles it (lib/constructs/app-function.ts), that are OIDC code. */
async function oidcInputsOf(group: string): Promise<string[]> {
  const result = await build({
    entryPoints: [path.join(ROOT, 'functions', group, 'index.ts')],
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    outdir: path.join(ROOT, 'cdk.out', 'oidc-bundles-test'),
    platform: 'node',
    format: 'esm',
    target: 'node22',
    mainFields: ['module', 'main'],
    metafile: true,
    logLevel: 'silent',
  });
  return Object.keys(result.metafile.inputs).filter((input) => OIDC_INPUT.test(input));
}

describe('openid-client in the Lambda bundles', () => {
  it('is in the auth bundle, which serves the OIDC routes', async () => {
    // Arrange
    const group = 'auth';

    // Act
    const inputs = await oidcInputsOf(group);

    // Assert
    expect(inputs.some((input) => input.includes('node_modules/openid-client/'))).toBe(true);
  });

  it.each(OTHERS)('is not in the %s bundle', async (group) => {
    // Arrange
    const expected: string[] = [];

    // Act
    const inputs = await oidcInputsOf(group);

    // Assert
    expect(inputs).toEqual(expected);
  });
});
