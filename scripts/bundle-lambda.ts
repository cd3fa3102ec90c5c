/**
 * Bundles one file of a Lambda asset with the service's esbuild options (lib/bundling/lambda-bundle.ts). The CDK
 * runs it for each function while it synthesizes (lib/constructs/app-function.ts): esbuild's plugins need its
 * asynchronous API, which a CDK bundling hook cannot await.
 *
 *   tsx scripts/bundle-lambda.ts <entry> <outfile> [--external=<package>]...
 */
import { bundleLambdaEntry } from '../lib/bundling/lambda-bundle';

const args = process.argv.slice(2);
const [entry, outfile] = args.filter((arg) => !arg.startsWith('--'));
const external = args.filter((arg) => arg.startsWith('--external=')).map((arg) => arg.slice('--external='.length));
const unknown = args.filter((arg) => arg.startsWith('--') && !arg.startsWith('--external='));
if (!entry || !outfile || unknown.length > 0) {
  process.stderr.write('usage: tsx scripts/bundle-lambda.ts <entry> <outfile> [--external=<package>]...\n');
  process.exit(2);
}

await bundleLambdaEntry({ entry, outfile, external });
