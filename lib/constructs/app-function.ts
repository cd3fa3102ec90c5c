import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { BUSINESS_METRICS_NAMESPACE } from '../../shared/manifest';
import { CANVAS_PLATFORM_PACKAGES, nativePackageDir } from './native-packages';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The bundle is ESM, but some bundled CommonJS dependencies still call `require` for node builtins;
 * esbuild's ESM output has no `require`, so one is defined from `import.meta.url`.
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __docserviceCreateRequire } from 'node:module'; " +
  'const require = __docserviceCreateRequire(import.meta.url);';

/**
 * Modules the Lambda bundles replace (esbuild `--alias`): the SDK's default credential chain by the environment
 * provider, since a Lambda's credentials are in its environment (see shared/adapters/aws/lambda-credentials.ts), and
 * `node:process` by the global's members, since Node's module view of it costs a cold start some 6 ms (see
 * shared/adapters/node/process-exports.ts).
 */
export const LAMBDA_ESBUILD_ALIASES: Readonly<Record<string, string>> = {
  '@aws-sdk/credential-provider-node': path.join(REPO_ROOT, 'shared', 'adapters', 'aws', 'lambda-credentials.ts'),
  'node:process': path.join(REPO_ROOT, 'shared', 'adapters', 'node', 'process-exports.ts'),
};

/** The architecture of every Lambda of the service; the imaging functions' native canvas binary follows it. */
export const LAMBDA_ARCHITECTURE = lambda.Architecture.ARM_64;

/** The esbuild options of the imaging worker that say what is not bundled (the native canvas) and what Node needs. */
const WORKER_ESBUILD_FLAGS = [
  '--bundle --platform=node --format=esm --target=node22 --minify --main-fields=module,main',
  '--sourcemap --sources-content=false --log-level=warning --external:@napi-rs/canvas',
  `--banner:js="${ESM_REQUIRE_BANNER}"`,
].join(' ');

/**
 * The thumbnail renderer and the PDF text-layer reader run pdf.js in a worker thread (`thumbnail-worker.mjs`,
 * bundled on its own beside `index.mjs`), with the files it loads at run time:
 * - `pdfjs/{standard_fonts,cmaps,wasm,iccs}/`: pdf.js's fonts for PDFs that do not embed theirs, character maps,
 *   and the WebAssembly of its JBIG2, JPEG 2000 and colour-profile decoders;
 * - `node_modules/@napi-rs/canvas/` and the platform package with the `.node` binary (Skia) for
 *   {@link LAMBDA_ARCHITECTURE}: a native module is not bundled, and both the worker and pdf.js `require` it.
 * The binary comes from node_modules when the build machine has the Lambdas' architecture, else from a copy
 * checked against package-lock.json (lib/constructs/native-packages.ts).
 */
export const thumbnailRendererFiles = (root: string, assetDir: string): string[] => {
  const architecture = LAMBDA_ARCHITECTURE === lambda.Architecture.ARM_64 ? 'arm64' : 'x86_64';
  const platformPackage = CANVAS_PLATFORM_PACKAGES[architecture];
  const canvas = `${root}/node_modules/@napi-rs/canvas`;
  const pdfjs = `${root}/node_modules/pdfjs-dist`;
  // Found (or fetched) in this checkout; `root` may name it as seen from elsewhere (CDK also writes a Docker variant).
  const native = `${root}/${path.relative(REPO_ROOT, nativePackageDir(architecture))}`;
  return [
    `"${root}/node_modules/.bin/esbuild" "${root}/shared/adapters/imaging/render-worker.ts" ${WORKER_ESBUILD_FLAGS} --outfile="${assetDir}/thumbnail-worker.mjs"`,
    `mkdir -p "${assetDir}/pdfjs" "${assetDir}/node_modules/@napi-rs/canvas" "${assetDir}/node_modules/${platformPackage}"`,
    `cp -R "${pdfjs}/standard_fonts" "${pdfjs}/cmaps" "${pdfjs}/wasm" "${pdfjs}/iccs" "${assetDir}/pdfjs/"`,
    `cp "${canvas}/package.json" "${canvas}/index.js" "${canvas}/js-binding.js" "${canvas}/geometry.js" "${canvas}/load-image.js" "${canvas}/node-canvas.js" "${canvas}/LICENSE" "${assetDir}/node_modules/@napi-rs/canvas/"`,
    `cp "${native}"/package.json "${native}"/*.node "${assetDir}/node_modules/${platformPackage}/"`,
  ];
};

/** Props of {@link AppFunction}. */
export interface AppFunctionProps {
  /** Folder under `functions/` whose `index.ts` exports `handler`, e.g. `auth`. */
  readonly group: string;
  /** @default 512 */
  readonly memorySize?: number;
  /** @default Duration.seconds(10) */
  readonly timeout?: Duration;
  /** Added to the defaults (`NODE_OPTIONS`); bind helpers add their own variables later. */
  readonly environment?: Record<string, string>;
  /** Removal policy of the function's log group. @default RemovalPolicy.RETAIN */
  readonly logRemovalPolicy?: RemovalPolicy;
  /**
   * Shell commands run after esbuild, with the repository root and the asset folder, for files the bundle loads
   * at run time (a worker script, WebAssembly modules). They run locally and offline, like esbuild itself.
   */
  readonly afterBundling?: (repositoryRoot: string, assetDir: string) => string[];
}

/**
 * One Lambda of the service: `functions/<group>/index.ts` bundled by esbuild as ESM for Node.js 22 on arm64,
 * with the AWS SDK bundled, X-Ray tracing and its own log group kept for one month. Powertools (logs, business
 * metrics: shared/adapters/powertools) names the stack as the service, and publishes the business metrics under
 * {@link BUSINESS_METRICS_NAMESPACE} with the service as their one dimension; the traces' subsegments go to the
 * X-Ray daemon from shared/adapters/xray, annotated with the same service.
 *
 * Grant access and set environment through the helpers in `bindings.ts`, not on {@link AppFunction.function}
 * directly, so that every variable comes with its permission.
 */
export class AppFunction extends Construct {
  /** The Lambda function. */
  public readonly function: NodejsFunction;
  /** The function's log group (retention one month). */
  public readonly logGroup: logs.LogGroup;
  /** The function's timeout, for alarms on runs that come near it. */
  public readonly timeout: Duration;

  constructor(scope: Construct, id: string, props: AppFunctionProps) {
    super(scope, id);

    this.logGroup = new logs.LogGroup(this, 'LogGroup', {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: props.logRemovalPolicy ?? RemovalPolicy.RETAIN,
    });

    this.timeout = props.timeout ?? Duration.seconds(10);
    this.function = new NodejsFunction(this, 'Function', {
      entry: path.join(REPO_ROOT, 'functions', props.group, 'index.ts'),
      handler: 'handler',
      projectRoot: REPO_ROOT,
      depsLockFilePath: path.join(REPO_ROOT, 'package-lock.json'),
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: LAMBDA_ARCHITECTURE,
      memorySize: props.memorySize ?? 512,
      timeout: this.timeout,
      tracing: lambda.Tracing.ACTIVE,
      logGroup: this.logGroup,
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: Stack.of(this).stackName,
        POWERTOOLS_METRICS_NAMESPACE: BUSINESS_METRICS_NAMESPACE,
        ...props.environment,
      },
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        minify: true,
        sourceMap: true,
        // Maps without embedded sources are a third the size, and node parses them at every cold start.
        esbuildArgs: {
          '--sources-content': false,
          ...Object.fromEntries(Object.entries(LAMBDA_ESBUILD_ALIASES).map(([name, target]) => [`--alias:${name}`, target])),
        },
        bundleAwsSDK: true,
        mainFields: ['module', 'main'],
        banner: ESM_REQUIRE_BANNER,
        logLevel: LogLevel.WARNING,
        ...(props.afterBundling
          ? {
              commandHooks: {
                beforeBundling: () => [],
                beforeInstall: () => [],
                afterBundling: props.afterBundling,
              },
            }
          : {}),
      },
    });
  }
}
