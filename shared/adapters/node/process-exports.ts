/**
 * Stands in for the `node:process` module in the Lambda bundles (an esbuild alias: see `LAMBDA_ESBUILD_ALIASES` in
 * lib/bundling/lambda-bundle.ts). Node gives an ES module a built-in by copying every property of it, and for
 * `process` that copy opens stdin, stdout and stderr and builds the set of allowed NODE_OPTIONS flags: some 6 ms
 * of each cold start, for the two names the SDK's user agent reads (`env`, `versions`). The same objects come
 * from the global here; a bundled package that imports another name fails the build, never the function.
 */
export const { env, versions } = process;
export default process;
