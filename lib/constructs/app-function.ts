import { execFileSync, execSync } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AssetHashType, DockerImage, Duration, RemovalPolicy, Stack, type ILocalBundling } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { BUSINESS_METRICS_NAMESPACE } from '../../shared/manifest';
import { CANVAS_PLATFORM_PACKAGES, nativePackageDir } from './native-packages';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Bundles one file of an asset (lib/bundling/lambda-bundle.ts), as a command a bundling hook can run. */
const bundleCommand = (root: string, entry: string, outfile: string, external: string[] = []): string[] => [
  process.execPath,
  '--import',
  'tsx',
  path.join(root, 'scripts', 'bundle-lambda.ts'),
  entry,
  outfile,
  ...external.map((name) => `--external=${name}`),
];

/** The architecture of every Lambda of the service; the imaging functions' native canvas binary follows it. */
export const LAMBDA_ARCHITECTURE = lambda.Architecture.ARM_64;

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
  // Found (or fetched) in this checkout.
  const native = `${root}/${path.relative(REPO_ROOT, nativePackageDir(architecture))}`;
  const worker = bundleCommand(root, 'shared/adapters/imaging/render-worker.ts', `${assetDir}/thumbnail-worker.mjs`, ['@napi-rs/canvas']);
  return [
    worker.map((arg) => `"${arg}"`).join(' '),
    `mkdir -p "${assetDir}/pdfjs" "${assetDir}/node_modules/@napi-rs/canvas" "${assetDir}/node_modules/${platformPackage}"`,
    `cp -R "${pdfjs}/standard_fonts" "${pdfjs}/cmaps" "${pdfjs}/wasm" "${pdfjs}/iccs" "${assetDir}/pdfjs/"`,
    `cp "${canvas}/package.json" "${canvas}/index.js" "${canvas}/js-binding.js" "${canvas}/geometry.js" "${canvas}/load-image.js" "${canvas}/node-canvas.js" "${canvas}/LICENSE" "${assetDir}/node_modules/@napi-rs/canvas/"`,
    `cp "${native}"/package.json "${native}"/*.node "${assetDir}/node_modules/${platformPackage}/"`,
  ];
};

/**
 * Builds a function's asset on this machine: its entry bundled as `index.mjs`, then the commands of its
 * `afterBundling`. The fields are what the CDK's asset cache tells one function's bundling from another's by.
 */
class LocalFunctionBundling implements ILocalBundling {
  constructor(
    /** The function's entry, relative to the repository. */
    public readonly entry: string,
    private readonly afterBundling: NonNullable<AppFunctionProps['afterBundling']> = () => [],
  ) {}

  tryBundle(assetDir: string): boolean {
    const [node, ...args] = bundleCommand(REPO_ROOT, this.entry, path.join(assetDir, 'index.mjs'));
    execFileSync(node!, args, { cwd: REPO_ROOT, stdio: 'inherit' });
    for (const command of this.afterBundling(REPO_ROOT, assetDir)) execSync(command, { cwd: REPO_ROOT, stdio: 'inherit', shell: '/bin/bash' });
    return true;
  }
}

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
 * One Lambda of the service: `functions/<group>/index.ts` bundled by esbuild as ESM for Node.js 22 on arm64
 * (lib/bundling/lambda-bundle.ts: the AWS SDK inside, a source map), X-Ray tracing and its own log group kept for one month. Powertools (logs, business
 * metrics: shared/adapters/powertools) names the stack as the service, and publishes the business metrics under
 * {@link BUSINESS_METRICS_NAMESPACE} with the service as their one dimension; the traces' subsegments go to the
 * X-Ray daemon from shared/adapters/xray, annotated with the same service.
 *
 * Grant access and set environment through the helpers in `bindings.ts`, not on {@link AppFunction.function}
 * directly, so that every variable comes with its permission.
 */
export class AppFunction extends Construct {
  /** The Lambda function. */
  public readonly function: lambda.Function;
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
    this.function = new lambda.Function(this, 'Function', {
      code: lambda.Code.fromAsset(REPO_ROOT, {
        // The bundle's own hash: an edit that changes no bundled byte deploys nothing.
        assetHashType: AssetHashType.OUTPUT,
        bundling: {
          // Never pulled: esbuild is a dependency, so the bundle is always built here (tryBundle says so).
          image: DockerImage.fromRegistry('public.ecr.aws/sam/build-nodejs22.x'),
          local: new LocalFunctionBundling(path.join('functions', props.group, 'index.ts'), props.afterBundling),
        },
      }),
      handler: 'index.handler',
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
    });
  }
}
