/**
 * Stands in for the `node:process` and `process` modules in the Lambda bundles (esbuild aliases: see
 * `LAMBDA_ESBUILD_ALIASES` in lib/bundling/lambda-bundle.ts). Node gives an ES module a built-in by copying every
 * property of it, and for `process` that copy opens stdin, stdout and stderr and builds the set of allowed
 * NODE_OPTIONS flags: a measurable part of each cold start (bench/lambda-bundles.ts), for the names the bundled packages read (`env` and `versions`
 * in the SDK's user agent; `platform`, `arch` and `env` in OpenTelemetry's machine-id detectors, lazily loaded
 * chunks). The same values come from the global here; a bundled package that imports another name fails the build
 * (and one reading another member of the namespace gets esbuild's warning), never the function.
 */
export const { arch, env, platform, versions } = process;
export default process;
