import { describe, expect, it } from 'vitest';
import { bundledInputsOf } from '../support/lambda-bundle-inputs';

/*
 * openid-client is for the auth function only: every other Lambda bundle must leave it out (issue 15). esbuild
 * puts a dynamically imported module in the bundle of whoever reaches the import, so what keeps it out is that
 * only the auth function's entry (functions/auth/index.ts) reaches lazy-openid-client.ts.
 */

/**
 * One function per kind of entry (bundling them all takes a minute on two cores): an HTTP function over the gate
 * (users), one with a lazily loaded client (documents), a worker (ocr-worker) and the WebSocket routes
 * (realtime). bench/lambda-bundles.ts reports every bundle.
 */
const OTHERS = ['users', 'documents', 'ocr-worker', 'realtime'];
const OIDC_INPUT = /node_modules\/(openid-client|oauth4webapi)\/|shared\/adapters\/oidc\/openid-client-oidc\.ts$/u;

/** The OIDC code in a function's bundle, as the CDK bundles it. */
const oidcInputsOf = async (group: string): Promise<string[]> => (await bundledInputsOf(group)).filter((input) => OIDC_INPUT.test(input));

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
