import {
  Annotations,
  CfnOutput,
  type CfnResource,
  CrossStackReferences,
  CustomResource,
  Duration,
  ReferenceStrength,
  RemovalPolicy,
  Stack,
  type StackProps,
} from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration, WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as opensearch from 'aws-cdk-lib/aws-opensearchservice';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Provider } from 'aws-cdk-lib/custom-resources';
import type { Construct } from 'constructs';
import {
  ENV,
  HTTP_ROUTES,
  INDEX_RECONCILE_HOURS,
  SOURCE_SCHEDULE_MINUTES,
  v2RouteKey,
  WS_ROUTES,
  type HttpGroup,
  type RegistrationMode,
} from '../../shared/manifest';
import { ApiEdge } from '../constructs/api-edge';
import { AppFunction, thumbnailRendererFiles } from '../constructs/app-function';
import { ChangeConsumers } from '../constructs/change-consumers';
import {
  bindBucket,
  bindChangeLedger,
  bindConnectionCleanup,
  bindCredentialsKey,
  bindHealthChecks,
  bindOcrQueues,
  bindOidc,
  bindQueue,
  bindRateLimits,
  bindSecret,
  bindTable,
  bindUsageMeter,
  bindWebSocket,
} from '../constructs/bindings';
import type { ReconcileEvent } from '../../functions/indexer/reconcile';
import type { OidcDeployment } from '../context';
import { Monitoring } from '../constructs/monitoring';
import { SearchAccess } from '../constructs/search-access';
import {
  checkThrottlesAdmit,
  DEFAULT_RATE_LIMITS,
  DEFAULT_TEXTRACT_TPS,
  EVENTS_TIMEOUT_SECONDS,
  HTTP_ROUTE_THROTTLES,
  HTTP_STAGE_THROTTLE,
  INDEXER_TIMEOUT_SECONDS,
  INGEST_CONCURRENCY,
  ocrConcurrency,
  type RateLimitSettings,
  SOURCE_SYNC_CONCURRENCY,
  WEBSOCKET_STAGE_THROTTLE,
} from './limits';
import { INGEST_TIMEOUT, OCR_WORKER_TIMEOUT, SOURCE_SYNC_TIMEOUT } from './stateful-stack';

/** What the admin bootstrap sets up (see the AdminBootstrap resource); a new value reruns it on deploy. */
export const BOOTSTRAP_DATA_VERSION = 'workspaces-2';

/** Name of the WebSocket API stage; part of the `@connections` callback URL. */
export const WEBSOCKET_STAGE_NAME = 'prod';

/** Every Lambda of the API stack, by the folder name of its entry under `functions/`. */
export type ApiFunctionName =
  | HttpGroup
  | 'fallback'
  | 'realtime'
  | 'bootstrap'
  | 'ingest'
  | 'ocr-worker'
  | 'ocr-sweeper'
  | 'search-index-setup'
  | 'source-sync'
  | 'source-scheduler'
  | 'indexer'
  | 'events';

/** The oldest OCR message may wait this long before an alarm: high-priority jobs are meant to start at once. */
export const OCR_MAX_MESSAGE_AGE = { normal: Duration.hours(1), high: Duration.minutes(15) } as const;

/** A queued sync step may wait this long before an alarm: past it the sync workers are failing or too few. */
export const SOURCE_SYNC_MAX_MESSAGE_AGE = Duration.hours(1);

/**
 * The cloud's answer to SOURCES_ALLOW_PRIVATE_NETWORKS: a source URL may not name a private, loopback or
 * link-local address (the instance metadata service, anything inside the account's networks).
 */
export const SOURCES_ALLOW_PRIVATE_NETWORKS = 'false';

/** Props of {@link ApiStack}: the stateful resources it binds to and the deployment's configuration. */
export interface ApiStackProps extends StackProps {
  readonly table: dynamodb.ITable;
  readonly documentsBucket: s3.IBucket;
  readonly ocrQueue: sqs.IQueue;
  readonly ocrHighQueue: sqs.IQueue;
  /** Dead-letter queues to alarm on, by name (each alarms on its first message). */
  readonly deadLetterQueues: Readonly<Record<string, sqs.IQueue>>;
  /** The OpenSearch domain of the search index. */
  readonly searchDomain: opensearch.IDomain;
  /** Replicas of the search index on this domain, and each data node's volume (for the storage alarm). */
  readonly searchDomainSize: { readonly indexReplicas: number; readonly volumeGiB: number };
  /** Object-created events of staged uploads (`uploads/`), sent there by the bucket. */
  readonly ingestQueue: sqs.IQueue;
  /** Steps of WebDAV source syncs: sent by the sources API, the scheduler and the sync worker itself. */
  readonly sourceSyncQueue: sqs.IQueue;
  /** Encrypts the WebDAV sources' passwords. */
  readonly sourceCredentialsKey: kms.IKey;
  readonly jwtSecret: secretsmanager.ISecret;
  readonly adminPasswordSecret: secretsmanager.ISecret;
  /** Origins the functions answer CORS for (`*` allows any; none when empty). */
  readonly corsOrigins: string[];
  /** Email address subscribed to the alarm topic; none when absent (a synth warning says so). */
  readonly alarmEmail?: string;
  /** The account's Textract calls per second in the region; sizes the OCR worker's concurrency. @default 5 */
  readonly textractTps?: number;
  /** Whether anyone may register (as a viewer). */
  readonly registrationMode: RegistrationMode;
  readonly adminUsername: string;
  readonly adminEmail: string;
  /** Removal policy of the function log groups. @default RemovalPolicy.RETAIN */
  readonly removalPolicy?: RemovalPolicy;
  /** Per-caller rate limits of the functions that count requests; must fit the throttles. @default DEFAULT_RATE_LIMITS */
  readonly rateLimits?: RateLimitSettings;
  /** Single sign-on, for the auth function; none: the OIDC routes answer 404. */
  readonly oidc?: OidcDeployment;
  /**
   * CloudFront in front of the HTTP API (see ApiEdge): the P 413 for bodies too large for Lambda, and the client's
   * address for the per-address limits. Off, clients call the gateway directly. @default true
   */
  readonly edge?: boolean;
}

/** The HTTP functions that count requests against the rate limits: every group but health. */
export const RATE_LIMITED_GROUPS = ['auth', 'users', 'settings', 'documents', 'labels', 'ocr', 'notifications', 'search', 'sources'] as const satisfies readonly HttpGroup[];

/**
 * The stateless part: an HTTP API with one Lambda per endpoint group of `HTTP_ROUTES` plus a `$default`
 * fallback, a WebSocket API served by one `realtime` Lambda, the two consumers of the table's stream (`indexer`
 * keeps the search index in step, `events` pushes the WebSocket events), and a deploy-time custom resource that
 * creates the first admin. Functions answer CORS themselves (the fallback answers preflights), so the HTTP API has no CORS
 * configuration and no authorizer: auth is the handlers' job, identical in both runtimes.
 */
export class ApiStack extends Stack {
  public readonly httpApi: apigwv2.HttpApi;
  public readonly webSocketApi: apigwv2.WebSocketApi;
  public readonly webSocketStage: apigwv2.WebSocketStage;
  public readonly httpStage: apigwv2.HttpStage;
  public readonly functions: Readonly<Record<ApiFunctionName, AppFunction>>;
  public readonly monitoring: Monitoring;
  /** The consumers of the table's stream (indexer, events) and their failure queues. */
  public readonly changeConsumers: ChangeConsumers;
  /** The deploy-time migration of the search index (functions using the index are deployed after it). */
  public readonly searchIndexSetup: CustomResource;
  public readonly searchAccess: SearchAccess;
  /** CloudFront in front of the HTTP API; none when deployed with `-c edge=false`. */
  public readonly edge?: ApiEdge;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    // Exports/imports: CloudFormation then refuses to delete a table, bucket, queue or secret this stack still uses.
    CrossStackReferences.of(this).consume(ReferenceStrength.STRONG);
    const logRemovalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;
    const ocrWorkers = ocrConcurrency(props.textractTps ?? DEFAULT_TEXTRACT_TPS);
    const rateLimits = props.rateLimits ?? DEFAULT_RATE_LIMITS;
    const throttleProblems = checkThrottlesAdmit(rateLimits);
    if (throttleProblems.length > 0) {
      throw new Error(`Rate limits do not fit the gateway throttles of lib/stacks/limits.ts: ${throttleProblems.join('; ')}. Lower the rate-limit context values or raise the throttles.`);
    }
    const searchAccess = new SearchAccess(this, 'SearchAccess', {
      domain: props.searchDomain,
      logRetention: logs.RetentionDays.ONE_MONTH,
      logRemovalPolicy,
    });
    this.searchAccess = searchAccess;
    const corsEnvironment = { [ENV.corsOrigins]: props.corsOrigins.join(',') };
    const jwtEnvironment = {
      [ENV.jwtIssuer]: 'docservice',
      [ENV.jwtAudience]: 'docservice-api',
      [ENV.jwtTtlSeconds]: '3600',
      [ENV.jwtRefreshGraceSeconds]: '604800',
    };
    const httpEnvironment = {
      ...jwtEnvironment,
      [ENV.registrationMode]: props.registrationMode,
      ...corsEnvironment,
    };
    const fn = (name: ApiFunctionName, environment: Record<string, string>, timeout?: Duration): AppFunction =>
      new AppFunction(this, pascalCase(name), { group: name, environment, timeout, logRemovalPolicy });

    // One imaging worker in a 1.5 GB function: its worst case (a 512 MB heap cap plus as much native canvas
    // memory, and the code) must fit beside the function's own files.
    const imagingEnvironment = { [ENV.imagingWorkers]: '1' };

    // HTTP API
    const httpFunctions = {
      auth: fn('auth', httpEnvironment),
      users: fn('users', httpEnvironment),
      settings: fn('settings', httpEnvironment),
      // Uploads, downloads and thumbnail rendering hold whole files in memory.
      documents: new AppFunction(this, 'Documents', {
        group: 'documents',
        environment: { ...httpEnvironment, ...imagingEnvironment },
        memorySize: 1536,
        timeout: Duration.seconds(30),
        logRemovalPolicy,
        afterBundling: thumbnailRendererFiles,
      }),
      labels: fn('labels', httpEnvironment),
      ocr: fn('ocr', { ...httpEnvironment, [ENV.ocrWorkers]: String(ocrWorkers.normal + ocrWorkers.high) }),
      notifications: fn('notifications', httpEnvironment),
      search: fn('search', httpEnvironment),
      health: fn('health', httpEnvironment),
      // Creating or changing a source checks its URL with a PROPFIND to a remote server: the gateway's 30 s.
      sources: fn('sources', { ...httpEnvironment, [ENV.sourcesAllowPrivateNetworks]: SOURCES_ALLOW_PRIVATE_NETWORKS }, Duration.seconds(30)),
    } satisfies Record<HttpGroup, AppFunction>;
    const ocrQueues = { normal: props.ocrQueue, high: props.ocrHighQueue };
    for (const group of ['auth', 'users', 'settings', 'documents', 'labels', 'ocr', 'notifications', 'sources'] as const) {
      bindTable(httpFunctions[group].function, props.table, 'readWrite');
      bindSecret(httpFunctions[group].function, props.jwtSecret, ENV.jwtSecretArn);
    }
    bindBucket(httpFunctions.documents.function, props.documentsBucket, 'readWrite');
    // Search: the search function reads the index; the indexer (below) alone writes it, from the table's stream.
    bindTable(httpFunctions.search.function, props.table, 'read');
    bindSecret(httpFunctions.search.function, props.jwtSecret, ENV.jwtSecretArn);
    searchAccess.bind(httpFunctions.search.function, 'read');
    bindOcrQueues(httpFunctions.documents.function, ocrQueues);
    bindOcrQueues(httpFunctions.ocr.function, ocrQueues);
    // Sources: the API encrypts the passwords it is given and reads them back for the URL check; a manual sync
    // is a message to the sync worker.
    bindCredentialsKey(httpFunctions.sources.function, props.sourceCredentialsKey, 'encryptDecrypt');
    bindQueue(httpFunctions.sources.function, props.sourceSyncQueue, 'send', ENV.sourceSyncQueueUrl);
    for (const group of RATE_LIMITED_GROUPS) bindRateLimits(httpFunctions[group].function, props.table, rateLimits);
    // The search function reads the table only: it is granted the usage counters it adds requests and searches to.
    bindUsageMeter(httpFunctions.search.function, props.table);
    if (props.oidc) bindOidc(httpFunctions.auth.function, props.oidc);
    bindHealthChecks(httpFunctions.health.function, {
      table: props.table,
      bucket: props.documentsBucket,
      queue: props.ocrQueue,
    });
    const fallback = fn('fallback', corsEnvironment);

    this.httpApi = new apigwv2.HttpApi(this, 'HttpApi', {
      apiName: `${this.stackName}-http`,
      defaultIntegration: new HttpLambdaIntegration('FallbackIntegration', fallback.function),
      // The stage is made below, with throttles and access logs.
      createDefaultStage: false,
    });
    // Every route of the manifest, v1 (`/api/...`) and its v2 twin (`/api/v2/...`), on the group's function.
    const httpRoutes: apigwv2.HttpRoute[] = [];
    for (const group of Object.keys(HTTP_ROUTES) as HttpGroup[]) {
      const integration = new HttpLambdaIntegration(`${pascalCase(group)}Integration`, httpFunctions[group].function);
      for (const routeKey of HTTP_ROUTES[group]) {
        const { method, path } = parseRouteKey(routeKey);
        httpRoutes.push(...this.httpApi.addRoutes({ path, methods: [method], integration }));
      }
    }
    this.httpStage = new apigwv2.HttpStage(this, 'HttpStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: HTTP_STAGE_THROTTLE,
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(this.accessLogGroup('HttpAccessLogs', logRemovalPolicy)),
        format: apigateway.AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            routeKey: '$context.routeKey',
            status: '$context.status',
            responseLength: '$context.responseLength',
            responseLatency: '$context.responseLatency',
            integrationLatency: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
            userAgent: '$context.identity.userAgent',
          }),
        ),
      },
    });
    // RouteSettings is a free-form map in CloudFormation's schema: CDK passes its keys through as written.
    const httpStageResource = this.httpStage.node.defaultChild as apigwv2.CfnStage;
    // A v2 route costs what its v1 twin costs, so it gets the same throttle.
    httpStageResource.routeSettings = Object.fromEntries(
      Object.entries(HTTP_ROUTE_THROTTLES).flatMap(([routeKey, limit]) =>
        [routeKey, v2RouteKey(routeKey)].map((key) => [key, { ThrottlingRateLimit: limit.rateLimit, ThrottlingBurstLimit: limit.burstLimit }]),
      ),
    );
    // Route settings name route keys, which must exist before the stage is created.
    for (const route of httpRoutes) this.httpStage.node.addDependency(route);
    if (props.edge ?? true) {
      this.edge = new ApiEdge(this, 'Edge', { httpApi: this.httpApi, corsOrigins: props.corsOrigins });
      // The functions that count requests per client address; health and the 404 fallback reveal nothing.
      for (const group of RATE_LIMITED_GROUPS) this.edge.bindFunction(httpFunctions[group].function);
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
    // WebSocket APIs write access logs with the account's API Gateway CloudWatch role (HTTP APIs need none).
    const apiGatewayLogsRole = new iam.Role(this, 'ApiGatewayCloudWatchRole', {
      assumedBy: new iam.ServicePrincipal('apigateway.amazonaws.com'),
      managedPolicies: [iam.ManagedPolicy.fromAwsManagedPolicyName('service-role/AmazonAPIGatewayPushToCloudWatchLogs')],
    });
    const apiGatewayAccount = new apigateway.CfnAccount(this, 'ApiGatewayAccount', { cloudWatchRoleArn: apiGatewayLogsRole.roleArn });
    this.webSocketStage = new apigwv2.WebSocketStage(this, 'WebSocketStage', {
      webSocketApi: this.webSocketApi,
      stageName: WEBSOCKET_STAGE_NAME,
      autoDeploy: true,
      throttle: WEBSOCKET_STAGE_THROTTLE,
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(this.accessLogGroup('WebSocketAccessLogs', logRemovalPolicy)),
        format: apigateway.AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            eventType: '$context.eventType',
            routeKey: '$context.routeKey',
            connectionId: '$context.connectionId',
            status: '$context.status',
            integrationLatency: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });
    this.webSocketStage.node.addDependency(apiGatewayAccount);
    // The channel itself pushes and closes (auth errors, limits); the events function (below) pushes the events
    // of the table's changes. No other function reaches the connections.
    bindWebSocket(realtime.function, this.webSocketApi, this.webSocketStage);

    // Presigned uploads: the bucket's events reach the ingest function through a queue, with partial batch
    // failures so one bad event does not redo the others.
    const ingest = new AppFunction(this, 'Ingest', { group: 'ingest', environment: {}, memorySize: 512, timeout: INGEST_TIMEOUT, logRemovalPolicy });
    bindTable(ingest.function, props.table, 'readWrite');
    bindBucket(ingest.function, props.documentsBucket, 'readWrite');
    bindOcrQueues(ingest.function, ocrQueues);
    ingest.function.addEventSource(
      new SqsEventSource(props.ingestQueue, { batchSize: 10, reportBatchItemFailures: true, maxConcurrency: INGEST_CONCURRENCY }),
    );

    // OCR worker: one function on both priority queues, each with its own event source and concurrency, so
    // high jobs are taken while normal ones queue up. Textract reads the file from the bucket with the
    // worker's role; pdf.js (with its data and the canvas binary shipped beside the bundle) reads PDF text layers.
    const ocrWorker = new AppFunction(this, 'OcrWorker', {
      group: 'ocr-worker',
      environment: imagingEnvironment,
      memorySize: 1536,
      timeout: OCR_WORKER_TIMEOUT,
      logRemovalPolicy,
      afterBundling: thumbnailRendererFiles,
    });
    bindTable(ocrWorker.function, props.table, 'readWrite');
    bindBucket(ocrWorker.function, props.documentsBucket, 'readWrite');
    // A job Textract is throttling goes back on its queue with a delay (not an attempt).
    bindOcrQueues(ocrWorker.function, ocrQueues);
    ocrWorker.function.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['textract:DetectDocumentText', 'textract:StartDocumentTextDetection', 'textract:GetDocumentTextDetection'],
        resources: ['*'],
      }),
    );
    // One file per invocation (Textract reads a large one from the bucket; only files within the text-layer bound
    // are held in memory). Concurrency stays inside the Textract quota.
    for (const priority of ['normal', 'high'] as const) {
      ocrWorker.function.addEventSource(
        new SqsEventSource(ocrQueues[priority], {
          batchSize: 1,
          reportBatchItemFailures: true,
          maxConcurrency: ocrWorkers[priority],
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

    // WebDAV source syncs: one step (one message) at a time per invocation, streaming each file into the bucket
    // (sync-staging/, then workspaces/) as the ingest would, and queueing the rest of the sync as a new message.
    const sourceSync = new AppFunction(this, 'SourceSync', {
      group: 'source-sync',
      environment: { [ENV.sourcesAllowPrivateNetworks]: SOURCES_ALLOW_PRIVATE_NETWORKS },
      memorySize: 1024,
      timeout: SOURCE_SYNC_TIMEOUT,
      logRemovalPolicy,
    });
    bindTable(sourceSync.function, props.table, 'readWrite');
    bindBucket(sourceSync.function, props.documentsBucket, 'readWrite');
    bindCredentialsKey(sourceSync.function, props.sourceCredentialsKey, 'decrypt');
    bindQueue(sourceSync.function, props.sourceSyncQueue, 'send', ENV.sourceSyncQueueUrl);
    bindOcrQueues(sourceSync.function, ocrQueues);
    sourceSync.function.addEventSource(
      new SqsEventSource(props.sourceSyncQueue, { batchSize: 1, reportBatchItemFailures: true, maxConcurrency: SOURCE_SYNC_CONCURRENCY }),
    );

    // The schedule claims the sources whose next sync is due and queues a sync for each.
    const sourceScheduler = new AppFunction(this, 'SourceScheduler', { group: 'source-scheduler', environment: {}, timeout: Duration.minutes(1), logRemovalPolicy });
    bindTable(sourceScheduler.function, props.table, 'readWrite');
    bindQueue(sourceScheduler.function, props.sourceSyncQueue, 'send', ENV.sourceSyncQueueUrl);
    new events.Rule(this, 'SourceSchedule', {
      schedule: events.Schedule.rate(Duration.minutes(SOURCE_SCHEDULE_MINUTES)),
      targets: [new targets.LambdaFunction(sourceScheduler.function)],
    });

    // The table's stream: the indexer keeps the search index in step (reading documents, their long texts in the
    // bucket and their labels), the events function pushes the P events of each change, recording in the table
    // which changes it published (the ledger) and dropping the connections it finds gone.
    const indexer = fn('indexer', {}, Duration.seconds(INDEXER_TIMEOUT_SECONDS));
    bindTable(indexer.function, props.table, 'read');
    bindBucket(indexer.function, props.documentsBucket, 'read');
    searchAccess.bind(indexer.function, 'readWrite');
    const eventsFunction = fn('events', {}, Duration.seconds(EVENTS_TIMEOUT_SECONDS));
    bindTable(eventsFunction.function, props.table, 'read');
    bindChangeLedger(eventsFunction.function, props.table);
    bindConnectionCleanup(eventsFunction.function, props.table);
    bindWebSocket(eventsFunction.function, this.webSocketApi, this.webSocketStage);
    this.changeConsumers = new ChangeConsumers(this, 'ChangeConsumers', {
      table: props.table,
      consumers: { indexer: indexer.function, events: eventsFunction.function },
      removalPolicy: logRemovalPolicy,
    });
    // The index is checked against the table, and repaired, on a schedule: what a change the indexer gave up on
    // (its failure queue) or a lost index write left behind does not wait for someone to run the rebuild.
    new events.Rule(this, 'IndexReconcileSchedule', {
      schedule: events.Schedule.rate(Duration.hours(INDEX_RECONCILE_HOURS)),
      targets: [new targets.LambdaFunction(indexer.function, { event: events.RuleTargetInput.fromObject({ reconcile: true } satisfies ReconcileEvent) })],
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
      // DataVersion moves with each change of what ensureAdmin sets up, so that upgrading a stack runs it again
      // (an unchanged resource is not updated): 'workspaces-1' created the first workspace and moved users into it;
      // 'workspaces-2' also moves the documents, labels, OCR jobs, uploads and counters written before workspaces.
      properties: { AdminUsername: props.adminUsername, AdminEmail: props.adminEmail, DataVersion: BOOTSTRAP_DATA_VERSION },
    });

    // Search index setup: the deploy, not the first request, creates or migrates the index. Every function that
    // reads or writes it is created or updated after it, so new code never meets an old mapping.
    const searchIndexSetup = new AppFunction(this, 'SearchIndexSetup', {
      group: 'search-index-setup',
      environment: { [ENV.searchIndexReplicas]: String(props.searchDomainSize.indexReplicas) },
      // A migration copies the index (_reindex) while the deploy waits.
      timeout: Duration.minutes(15),
      logRemovalPolicy,
    });
    searchAccess.bind(searchIndexSetup.function, 'readWrite');
    const searchIndexSetupProvider = new Provider(this, 'SearchIndexSetupProvider', {
      onEventHandler: searchIndexSetup.function,
      logGroup: new logs.LogGroup(this, 'SearchIndexSetupProviderLogGroup', {
        retention: logs.RetentionDays.ONE_MONTH,
        removalPolicy: logRemovalPolicy,
      }),
    });
    this.searchIndexSetup = new CustomResource(this, 'SearchIndex', {
      serviceToken: searchIndexSetupProvider.serviceToken,
      resourceType: 'Custom::SearchIndexSetup',
      // Any new code of the setup (a new mapping or INDEX_VERSION is in its bundle) or replica count re-runs it;
      // the migration does nothing when the index is already current.
      properties: { CodeVersion: searchIndexSetup.function.currentVersion.version, Replicas: props.searchDomainSize.indexReplicas },
    });
    this.searchIndexSetup.node.addDependency(searchAccess.accessPolicy);
    // The function resources only: their roles must exist first, for the domain's access policy to name them.
    for (const user of [httpFunctions.search, indexer]) {
      (user.function.node.defaultChild as CfnResource).addDependency(this.searchIndexSetup.node.defaultChild as CfnResource);
    }

    this.functions = {
      ...httpFunctions,
      fallback,
      realtime,
      bootstrap,
      ingest,
      'ocr-worker': ocrWorker,
      'ocr-sweeper': ocrSweeper,
      'search-index-setup': searchIndexSetup,
      'source-sync': sourceSync,
      'source-scheduler': sourceScheduler,
      indexer,
      events: eventsFunction,
    };

    this.monitoring = new Monitoring(this, 'Monitoring', {
      alarmEmail: props.alarmEmail,
      deadLetterQueues: props.deadLetterQueues,
      workQueues: {
        'ocr-normal': { queue: props.ocrQueue, maxAge: OCR_MAX_MESSAGE_AGE.normal },
        'ocr-high': { queue: props.ocrHighQueue, maxAge: OCR_MAX_MESSAGE_AGE.high },
        'source-sync': { queue: props.sourceSyncQueue, maxAge: SOURCE_SYNC_MAX_MESSAGE_AGE },
      },
      changeConsumers: Object.fromEntries(
        Object.entries({ indexer, events: eventsFunction }).map(([name, consumer]) => [
          name,
          { function: consumer.function, failureQueue: this.changeConsumers.failureQueues[name]! },
        ]),
      ),
      functions: Object.fromEntries(
        Object.entries(this.functions).map(([name, appFunction]) => [name, { function: appFunction.function, timeout: appFunction.timeout }]),
      ),
      httpApi: this.httpApi,
      httpStageName: this.httpStage.stageName,
      webSocketApi: this.webSocketApi,
      webSocketStageName: this.webSocketStage.stageName,
      searchDomain: props.searchDomain,
      searchVolumeGiB: props.searchDomainSize.volumeGiB,
      rateLimitedLogGroups: Object.fromEntries(RATE_LIMITED_GROUPS.map((group) => [group, httpFunctions[group].logGroup])),
    });
    if (!props.alarmEmail) {
      Annotations.of(this).addWarningV2(
        'docservice:no-alarm-email',
        'No alarmEmail in context: alarms go to an SNS topic nobody is subscribed to (-c alarmEmail=ops@example.com).',
      );
    }

    new CfnOutput(this, 'HttpApiUrl', {
      value: this.edge?.url ?? this.httpApi.apiEndpoint,
      description: 'The base URL of the API (the CloudFront edge unless deployed with -c edge=false)',
    });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.monitoring.topic.topicArn });
    new CfnOutput(this, 'OpenSearchEndpoint', { value: props.searchDomain.domainEndpoint });
    new CfnOutput(this, 'WebSocketUrl', { value: this.webSocketStage.url });
    new CfnOutput(this, 'AdminPasswordSecretArn', { value: props.adminPasswordSecret.secretArn });
    new CfnOutput(this, 'TableName', { value: props.table.tableName });
    new CfnOutput(this, 'BucketName', { value: props.documentsBucket.bucketName });
  }

  private accessLogGroup(id: string, removalPolicy: RemovalPolicy): logs.LogGroup {
    return new logs.LogGroup(this, id, { retention: logs.RetentionDays.ONE_MONTH, removalPolicy });
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
