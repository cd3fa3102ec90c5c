import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AssetHashType, DockerImage, Duration, RemovalPolicy, Stack, type ILocalBundling } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { BUSINESS_METRICS_NAMESPACE } from '../../shared/manifest';
import { addImagingFiles } from '../bundling/imaging-asset';
import { bundleLambdaEntrySync } from '../bundling/lambda-bundle';
import { tracingCollectorLayerArn } from './tracing';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The architecture of every Lambda of the service; the imaging functions' native canvas binary follows it. */
export const LAMBDA_ARCHITECTURE = lambda.Architecture.ARM_64;

/** The imaging functions' run-time files (lib/bundling/imaging-asset.ts), with the canvas binary of {@link LAMBDA_ARCHITECTURE}. */
export const thumbnailRendererFiles = (assetDir: string): void =>
  addImagingFiles(assetDir, LAMBDA_ARCHITECTURE === lambda.Architecture.ARM_64 ? 'arm64' : 'x86_64');

/**
 * Builds a function's asset on this machine: its entry bundled as `index.mjs`, then its `afterBundling`. The
 * entry is what the CDK's asset cache tells one function's bundling from another's by.
 */
class LocalFunctionBundling implements ILocalBundling {
  constructor(
    /** The function's entry, relative to the repository. */
    public readonly entry: string,
    private readonly afterBundling: NonNullable<AppFunctionProps['afterBundling']> = () => {},
  ) {}

  tryBundle(assetDir: string): boolean {
    bundleLambdaEntrySync({ entry: this.entry, outfile: path.join(assetDir, 'index.mjs') });
    this.afterBundling(assetDir);
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
   * Adds to the asset folder, after esbuild, the files the bundle loads at run time (a worker script, WebAssembly
   * modules, a native module), on this machine like esbuild itself.
   */
  readonly afterBundling?: (assetDir: string) => void;
}

/**
 * One Lambda of the service: `functions/<group>/index.ts` bundled by esbuild as ESM for Node.js 22 on arm64
 * (lib/bundling/lambda-bundle.ts: the AWS SDK inside, a source map), X-Ray active tracing and its own log group kept for one month. Powertools (logs, business
 * metrics: shared/adapters/powertools) names the stack as the service, and publishes the business metrics under
 * {@link BUSINESS_METRICS_NAMESPACE} with the service as their one dimension. The function's OpenTelemetry spans
 * (shared/adapters/otel, with the same service) go over OTLP/HTTP to the collector layer beside it (tracing.ts),
 * which sends them on to X-Ray; with the layer set to `none` the function exports no spans of its own.
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
    const collectorLayer = tracingCollectorLayerArn(this);
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
      layers: collectorLayer ? [lambda.LayerVersion.fromLayerVersionArn(this, 'TracingCollector', collectorLayer)] : [],
      logGroup: this.logGroup,
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        // OTLP/HTTP to the collector's receiver on the function's loopback (shared/adapters/otel/tracing-config.ts).
        OTEL_TRACES_EXPORTER: collectorLayer ? 'otlp' : 'none',
        POWERTOOLS_SERVICE_NAME: Stack.of(this).stackName,
        POWERTOOLS_METRICS_NAMESPACE: BUSINESS_METRICS_NAMESPACE,
        ...props.environment,
      },
    });
  }
}
