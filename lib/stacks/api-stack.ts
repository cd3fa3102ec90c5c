import {
  CfnOutput,
  CrossStackReferences,
  CustomResource,
  Duration,
  ReferenceStrength,
  RemovalPolicy,
  Stack,
  type StackProps,
} from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration, WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as opensearch from 'aws-cdk-lib/aws-opensearchservice';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Provider } from 'aws-cdk-lib/custom-resources';
import type { Construct } from 'constructs';
import { ENV, HTTP_ROUTES, WS_ROUTES, type HttpGroup } from '../../functions/manifest';
import { AppFunction, thumbnailRendererFiles } from '../constructs/app-function';
import { bindBucket, bindHealthChecks, bindOcrQueues, bindSearch, bindSecret, bindTable, bindWebSocket } from '../constructs/bindings';
import { INGEST_TIMEOUT, OCR_WORKER_TIMEOUT } from './stateful-stack';

/** Name of the WebSocket API stage; part of the `@connections` callback URL. */
export const WEBSOCKET_STAGE_NAME = 'prod';

/** Every Lambda of the API stack, by the folder name of its entry under `functions/`. */
export type ApiFunctionName = HttpGroup | 'fallback' | 'realtime' | 'bootstrap' | 'ingest' | 'ocr-worker' | 'ocr-sweeper';

/** OCR jobs run side by side at most: the worker's concurrency on each queue (high gets more). */
const OCR_CONCURRENCY = { normal: 3, high: 2 } as const;

/** Props of {@link ApiStack}: the stateful resources it binds to and the deployment's configuration. */
export interface ApiStackProps extends StackProps {
  readonly table: dynamodb.ITable;
  readonly documentsBucket: s3.IBucket;
  readonly ocrQueue: sqs.IQueue;
  readonly ocrHighQueue: sqs.IQueue;
  /** The OpenSearch domain of the search index. */
  readonly searchDomain: opensearch.IDomain;
  /** Object-created events of staged uploads (`uploads/`), sent there by the bucket. */
  readonly ingestQueue: sqs.IQueue;
  readonly jwtSecret: secretsmanager.ISecret;
  readonly adminPasswordSecret: secretsmanager.ISecret;
  /** Origins the functions answer CORS for (`*` allows any). */
  readonly corsOrigins: string[];
  /** Whether anyone may register (as a viewer). */
  readonly registrationOpen: boolean;
  readonly adminUsername: string;
  readonly adminEmail: string;
  /** Removal policy of the function log groups. @default RemovalPolicy.RETAIN */
  readonly removalPolicy?: RemovalPolicy;
}

/**
 * The stateless part: an HTTP API with one Lambda per endpoint group of `HTTP_ROUTES` plus a `$default`
 * fallback, a WebSocket API served by one `realtime` Lambda, and a deploy-time custom resource that creates the
 * first admin. Functions answer CORS themselves (the fallback answers preflights), so the HTTP API has no CORS
 * configuration and no authorizer: auth is the handlers' job, identical in both runtimes.
 */
export class ApiStack extends Stack {
  public readonly httpApi: apigwv2.HttpApi;
  public readonly webSocketApi: apigwv2.WebSocketApi;
  public readonly webSocketStage: apigwv2.WebSocketStage;
  public readonly functions: Readonly<Record<ApiFunctionName, AppFunction>>;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    // Exports/imports: CloudFormation then refuses to delete a table, bucket, queue or secret this stack still uses.
    CrossStackReferences.of(this).consume(ReferenceStrength.STRONG);
    const logRemovalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;
    const corsEnvironment = { [ENV.corsOrigins]: props.corsOrigins.join(',') };
    const jwtEnvironment = {
      [ENV.jwtIssuer]: 'docservice',
      [ENV.jwtAudience]: 'docservice-api',
      [ENV.jwtTtlSeconds]: '3600',
      [ENV.jwtRefreshGraceSeconds]: '604800',
    };
    const httpEnvironment = {
      ...jwtEnvironment,
      [ENV.registrationOpen]: String(props.registrationOpen),
      ...corsEnvironment,
    };
    const fn = (name: ApiFunctionName, environment: Record<string, string>, timeout?: Duration): AppFunction =>
      new AppFunction(this, pascalCase(name), { group: name, environment, timeout, logRemovalPolicy });

    // HTTP API
    const httpFunctions = {
      auth: fn('auth', httpEnvironment),
      users: fn('users', httpEnvironment),
      settings: fn('settings', httpEnvironment),
      // Uploads, downloads and thumbnail rendering hold whole files in memory.
      documents: new AppFunction(this, 'Documents', {
        group: 'documents',
        environment: httpEnvironment,
        memorySize: 1536,
        timeout: Duration.seconds(30),
        logRemovalPolicy,
        afterBundling: thumbnailRendererFiles,
      }),
      labels: fn('labels', httpEnvironment),
      ocr: fn('ocr', { ...httpEnvironment, [ENV.ocrWorkers]: String(OCR_CONCURRENCY.normal + OCR_CONCURRENCY.high) }),
      notifications: fn('notifications', httpEnvironment),
      search: fn('search', httpEnvironment),
      health: fn('health', httpEnvironment),
    } satisfies Record<HttpGroup, AppFunction>;
    const ocrQueues = { normal: props.ocrQueue, high: props.ocrHighQueue };
    for (const group of ['auth', 'users', 'settings', 'documents', 'labels', 'ocr', 'notifications'] as const) {
      bindTable(httpFunctions[group].function, props.table, 'readWrite');
      bindSecret(httpFunctions[group].function, props.jwtSecret, ENV.jwtSecretArn);
    }
    bindBucket(httpFunctions.documents.function, props.documentsBucket, 'readWrite');
    // Search: the search function reads the index; every function that changes what a search finds writes it
    // (documents, labels, the OCR worker, the ingest), reading large texts from the bucket.
    bindTable(httpFunctions.search.function, props.table, 'read');
    bindSecret(httpFunctions.search.function, props.jwtSecret, ENV.jwtSecretArn);
    bindSearch(httpFunctions.search.function, props.searchDomain, 'read');
    bindSearch(httpFunctions.documents.function, props.searchDomain, 'readWrite');
    bindSearch(httpFunctions.labels.function, props.searchDomain, 'readWrite');
    bindBucket(httpFunctions.labels.function, props.documentsBucket, 'read');
    bindOcrQueues(httpFunctions.documents.function, ocrQueues);
    bindOcrQueues(httpFunctions.ocr.function, ocrQueues);
    bindHealthChecks(httpFunctions.health.function, {
      table: props.table,
      bucket: props.documentsBucket,
      queue: props.ocrQueue,
    });
    const fallback = fn('fallback', corsEnvironment);

    this.httpApi = new apigwv2.HttpApi(this, 'HttpApi', {
      apiName: `${this.stackName}-http`,
      defaultIntegration: new HttpLambdaIntegration('FallbackIntegration', fallback.function),
    });
    for (const group of Object.keys(HTTP_ROUTES) as HttpGroup[]) {
      const integration = new HttpLambdaIntegration(`${pascalCase(group)}Integration`, httpFunctions[group].function);
      for (const routeKey of HTTP_ROUTES[group]) {
        const { method, path } = parseRouteKey(routeKey);
        this.httpApi.addRoutes({ path, methods: [method], integration });
      }
    }

    // WebSocket API
    // Verifies the same access tokens as the HTTP functions, in the auth message.
    const realtime = fn('realtime', jwtEnvironment);
    bindTable(realtime.function, props.table, 'readWrite');
    bindSecret(realtime.function, props.jwtSecret, ENV.jwtSecretArn);
    const realtimeIntegration = new WebSocketLambdaIntegration('RealtimeIntegration', realtime.function);
    this.webSocketApi = new apigwv2.WebSocketApi(this, 'WebSocketApi', {
      apiName: `${this.stackName}-ws`,
    });
    for (const routeKey of WS_ROUTES) {
      // $default answers each client message (auth outcome, errors) through the route response.
      this.webSocketApi.addRoute(routeKey, { integration: realtimeIntegration, returnResponse: routeKey === '$default' });
    }
    this.webSocketStage = new apigwv2.WebSocketStage(this, 'WebSocketStage', {
      webSocketApi: this.webSocketApi,
      stageName: WEBSOCKET_STAGE_NAME,
      autoDeploy: true,
    });
    // The channel itself pushes and closes (auth errors, limits); the producers push events.
    bindWebSocket(realtime.function, this.webSocketApi, this.webSocketStage);
    bindWebSocket(httpFunctions.documents.function, this.webSocketApi, this.webSocketStage);
    bindWebSocket(httpFunctions.ocr.function, this.webSocketApi, this.webSocketStage);

    // Presigned uploads: the bucket's events reach the ingest function through a queue, with partial batch
    // failures so one bad event does not redo the others.
    const ingest = new AppFunction(this, 'Ingest', { group: 'ingest', environment: {}, memorySize: 512, timeout: INGEST_TIMEOUT, logRemovalPolicy });
    bindTable(ingest.function, props.table, 'readWrite');
    bindBucket(ingest.function, props.documentsBucket, 'readWrite');
    bindOcrQueues(ingest.function, ocrQueues);
    bindSearch(ingest.function, props.searchDomain, 'readWrite');
    bindWebSocket(ingest.function, this.webSocketApi, this.webSocketStage);
    ingest.function.addEventSource(new SqsEventSource(props.ingestQueue, { batchSize: 10, reportBatchItemFailures: true }));

    // OCR worker: one function on both priority queues, each with its own event source and concurrency, so
    // high jobs are taken while normal ones queue up. Textract reads the file from the bucket with the
    // worker's role; MuPDF (WebAssembly, shipped beside the bundle) reads PDF text layers.
    const ocrWorker = new AppFunction(this, 'OcrWorker', {
      group: 'ocr-worker',
      environment: {},
      memorySize: 1536,
      timeout: OCR_WORKER_TIMEOUT,
      logRemovalPolicy,
      afterBundling: thumbnailRendererFiles,
    });
    bindTable(ocrWorker.function, props.table, 'readWrite');
    bindBucket(ocrWorker.function, props.documentsBucket, 'readWrite');
    bindSearch(ocrWorker.function, props.searchDomain, 'readWrite');
    bindWebSocket(ocrWorker.function, this.webSocketApi, this.webSocketStage);
    ocrWorker.function.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['textract:DetectDocumentText', 'textract:StartDocumentTextDetection', 'textract:GetDocumentTextDetection'],
        resources: ['*'],
      }),
    );
    for (const priority of ['normal', 'high'] as const) {
      ocrWorker.function.addEventSource(
        new SqsEventSource(ocrQueues[priority], {
          batchSize: 5,
          reportBatchItemFailures: true,
          maxConcurrency: Math.max(2, OCR_CONCURRENCY[priority]),
        }),
      );
    }

    // Stuck-job sweep: jobs whose message was lost or whose worker died are queued again.
    const ocrSweeper = new AppFunction(this, 'OcrSweeper', { group: 'ocr-sweeper', environment: {}, timeout: Duration.minutes(1), logRemovalPolicy });
    bindTable(ocrSweeper.function, props.table, 'read');
    bindOcrQueues(ocrSweeper.function, ocrQueues);
    new events.Rule(this, 'OcrSweepSchedule', {
      schedule: events.Schedule.rate(Duration.minutes(10)),
      targets: [new targets.LambdaFunction(ocrSweeper.function)],
    });

    // Admin bootstrap, run by CloudFormation on every deploy that changes its properties.
    const bootstrap = fn(
      'bootstrap',
      { [ENV.adminUsername]: props.adminUsername, [ENV.adminEmail]: props.adminEmail },
      Duration.seconds(30),
    );
    bindTable(bootstrap.function, props.table, 'readWrite');
    bindSecret(bootstrap.function, props.adminPasswordSecret, ENV.adminPasswordSecretArn);
    const bootstrapProvider = new Provider(this, 'AdminBootstrapProvider', {
      onEventHandler: bootstrap.function,
      logGroup: new logs.LogGroup(this, 'AdminBootstrapProviderLogGroup', {
        retention: logs.RetentionDays.ONE_MONTH,
        removalPolicy: logRemovalPolicy,
      }),
    });
    new CustomResource(this, 'AdminBootstrap', {
      serviceToken: bootstrapProvider.serviceToken,
      resourceType: 'Custom::AdminBootstrap',
      properties: { AdminUsername: props.adminUsername, AdminEmail: props.adminEmail },
    });

    this.functions = { ...httpFunctions, fallback, realtime, bootstrap, ingest, 'ocr-worker': ocrWorker, 'ocr-sweeper': ocrSweeper };

    new CfnOutput(this, 'HttpApiUrl', { value: this.httpApi.apiEndpoint });
    new CfnOutput(this, 'WebSocketUrl', { value: this.webSocketStage.url });
    new CfnOutput(this, 'AdminPasswordSecretArn', { value: props.adminPasswordSecret.secretArn });
    new CfnOutput(this, 'TableName', { value: props.table.tableName });
    new CfnOutput(this, 'BucketName', { value: props.documentsBucket.bucketName });
  }
}

/** Splits a route key such as `GET /api/users` into the pieces `HttpApi.addRoutes` takes. */
function parseRouteKey(routeKey: string): { method: apigwv2.HttpMethod; path: string } {
  const [method, path, ...rest] = routeKey.split(' ');
  const httpMethod = Object.values(apigwv2.HttpMethod).find((m) => m === method);
  if (!httpMethod || !path?.startsWith('/') || rest.length > 0) {
    throw new Error(`Invalid route key "${routeKey}": expected "METHOD /path"`);
  }
  return { method: httpMethod, path };
}

function pascalCase(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
