import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The bundle is ESM, but some bundled CommonJS dependencies still call `require` for node builtins;
 * esbuild's ESM output has no `require`, so one is defined from `import.meta.url`.
 */
const ESM_REQUIRE_BANNER =
  "import { createRequire as __docserviceCreateRequire } from 'node:module'; " +
  'const require = __docserviceCreateRequire(import.meta.url);';

/** Props of {@link AppFunction}. */
/**
 * The thumbnail renderer runs MuPDF in a worker thread: the worker is bundled on its own and ships with the
 * WebAssembly modules it loads from beside it.
 */
export const thumbnailRendererFiles = (root: string, assetDir: string): string[] => [
  `"${root}/node_modules/.bin/esbuild" "${root}/shared/adapters/imaging/render-worker.ts" --bundle --platform=node --format=esm --target=node22 --minify --main-fields=module,main --sourcemap --sources-content=false --log-level=warning --outfile="${assetDir}/thumbnail-worker.mjs"`,
  `cp "${root}/node_modules/mupdf/dist/mupdf-wasm.wasm" "${root}/node_modules/@jsquash/webp/codec/dec/webp_dec.wasm" "${assetDir}/"`,
];

/** `afterBundling` for functions that read PDF text layers with MuPDF in-process: its WebAssembly beside the bundle. */
export const pdfTextLayerFiles = (root: string, assetDir: string): string[] => [
  `cp "${root}/node_modules/mupdf/dist/mupdf-wasm.wasm" "${assetDir}/"`,
];

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
 * with the AWS SDK bundled, X-Ray tracing and its own log group kept for one month.
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
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: this.timeout,
      tracing: lambda.Tracing.ACTIVE,
      logGroup: this.logGroup,
      environment: { NODE_OPTIONS: '--enable-source-maps', ...props.environment },
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        minify: true,
        sourceMap: true,
        // Maps without embedded sources are a third the size, and node parses them at every cold start.
        esbuildArgs: { '--sources-content': false },
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
