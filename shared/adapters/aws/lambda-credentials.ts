import { fromEnv } from '@aws-sdk/credential-provider-env';

/**
 * Stands in for `@aws-sdk/credential-provider-node` in the Lambda bundles (an esbuild alias: see
 * `LAMBDA_ESBUILD_ALIASES` in lib/bundling/lambda-bundle.ts). A Lambda's credentials are its execution role's,
 * in its environment; the default chain's other providers (profiles, SSO, STS web identity, containers, IMDS)
 * never answer there and only add their clients (with STS's XML parser) to every function.
 * Everything run outside Lambda (the local runtime, tests, scripts) keeps the SDK's default chain.
 */
export const defaultProvider = (init: Parameters<typeof fromEnv>[0] = {}): ReturnType<typeof fromEnv> => fromEnv(init);
