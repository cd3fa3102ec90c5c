import { type CustomResource, Annotations, CfnOutput, CrossStackReferences, Duration, ReferenceStrength, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as opensearch from 'aws-cdk-lib/aws-opensearchservice';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { ENV, INDEX_RECONCILE_HOURS, type HttpGroup, type RegistrationMode, type ReconcileEvent } from '../../shared/manifest';
import { ApiEdge } from '../constructs/api-edge';
import { AppFunction, thumbnailRendererFiles } from '../constructs/app-function';
import { Eraser } from '../constructs/eraser';
import { bindPortabilityApi, createPortabilityWorker, PORTABILITY_MAX_MESSAGE_AGE } from './portability';
import { ChangeConsumers } from '../constructs/change-consumers';
import {
  bindAuditLog,
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
import type { CustomDomain, OidcDeployment } from '../context';
import { Monitoring } from '../constructs/monitoring';
import { SearchAccess } from '../constructs/search-access';
import {
  checkThrottlesAdmit,
  DEFAULT_RATE_LIMITS,
  DEFAULT_TEXTRACT_TPS,
  EVENTS_TIMEOUT_SECONDS,
  INDEXER_TIMEOUT_SECONDS,
  WEBHOOK_DISPATCH_TIMEOUT_SECONDS,
  ocrConcurrency,
  type RateLimitSettings,
} from './limits';
import { createAdminBootstrap, createSearchIndexSetup } from './deploy-time-setup';
import { createHttpApi, createWebSocketApi, pascalCase } from './gateway-apis';
import { createQueueWorkers } from './queue-workers';


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
  | 'events'
  | 'webhook-dispatch'
  | 'webhook-delivery'
  | 'rule-jobs'
  | 'eraser'
  | 'portability-worker';

/** The oldest OCR message may wait this long before an alarm: high-priority jobs are meant to start at once. */
export const OCR_MAX_MESSAGE_AGE = { normal: Duration.hours(1), high: Duration.minutes(15) } as const;

/** A queued sync step may wait this long before an alarm: past it the sync workers are failing or too few. */
export const SOURCE_SYNC_MAX_MESSAGE_AGE = Duration.hours(1);

/**
 * The cloud's answer to SOURCES_ALLOW_PRIVATE_NETWORKS: a source URL may not name a private, loopback or
 * link-local address (the instance metadata service, anything inside the account's networks).
 */
export const SOURCES_ALLOW_PRIVATE_NETWORKS = 'false';

/** The cloud's answer to WEBHOOKS_ALLOW_PRIVATE_NETWORKS: as for sources, a webhook may not name a private address. */
export const WEBHOOKS_ALLOW_PRIVATE_NETWORKS = 'false';

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
  /** Encrypts the WebDAV sources' passwords and the webhooks' signing secrets. */
  readonly sourceCredentialsKey: kms.IKey;
  /** Webhook deliveries: sent by the webhooks API (pings), the webhook-dispatch consumer and the delivery worker (retries). */
  readonly webhookDeliveryQueue: sqs.IQueue;
  /** Steps of labelling rules' runs over existing documents: sent by the labels API and the rule-jobs worker. */
  readonly ruleJobsQueue: sqs.IQueue;
  /** Workspace exports and imports: sent by the portability API, run by the portability worker. */
  readonly portabilityQueue: sqs.IQueue;
  /** Workspace erasures: sent by the workspaces API, worked by the eraser. */
  readonly erasureQueue: sqs.IQueue;
  /** The audit log's table (append-only grants). */
  readonly auditTable: dynamodb.ITable;
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
  /**
   * The longest a personal API token may live, in days (1..3650; context `apiTokenMaxDays`), given to the users
   * function, which makes tokens. @default 365
   */
  readonly apiTokenMaxDays?: number;
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
  /** The edge's custom domain (certificate in us-east-1, optional Route 53 alias records); none: `*.cloudfront.net`. */
  readonly customDomain?: CustomDomain;
  /** PLANS and DEFAULT_PLAN for every function (plansFromContext); none: one plan without limits. */
  readonly plans?: Readonly<Record<string, string>>;
}

/** The HTTP functions that count requests against the rate limits: every group but health. */
export const RATE_LIMITED_GROUPS = ['auth', 'users', 'settings', 'documents', 'labels', 'ocr', 'notifications', 'search', 'sources', 'webhooks', 'workspaces', 'portability', 'audit'] as const satisfies readonly HttpGroup[];

/**
 * The stateless part: an HTTP API with one Lambda per endpoint group of `HTTP_ROUTES` plus a `$default`
 * fallback, a WebSocket API served by one `realtime` Lambda, the three consumers of the table's stream (`indexer`
 * keeps the search index in step, `events` pushes the WebSocket events, `webhook-dispatch` queues webhook
 * deliveries), the queue workers (lib/stacks/queue-workers.ts), and a deploy-time custom resource that
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
  /** The consumers of the table's stream (indexer, events, webhook-dispatch) and their failure queues. */
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
      users: fn('users', { ...httpEnvironment, [ENV.apiTokenMaxDays]: String(apiTokenMaxDays(props.apiTokenMaxDays)) }),
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
      webhooks: fn('webhooks', httpEnvironment),
      workspaces: fn('workspaces', httpEnvironment),
      portability: fn('portability', httpEnvironment),
      audit: fn('audit', httpEnvironment),
    } satisfies Record<HttpGroup, AppFunction>;
    const ocrQueues = { normal: props.ocrQueue, high: props.ocrHighQueue };
    for (const group of ['auth', 'users', 'settings', 'documents', 'labels', 'ocr', 'notifications', 'sources', 'webhooks', 'workspaces'] as const) {
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
    // Webhooks: the API seals each endpoint's signing secret (and opens it to show it once more after a rotation);
    // a ping is a delivery queued for the delivery worker. It never receives from the queue.
    bindCredentialsKey(httpFunctions.webhooks.function, props.sourceCredentialsKey, 'encryptDecrypt');
    bindQueue(httpFunctions.webhooks.function, props.webhookDeliveryQueue, 'send', ENV.webhookDeliveryQueueUrl);
    // Rules: applying a rule to existing documents is a message to the rule-jobs worker.
    bindQueue(httpFunctions.labels.function, props.ruleJobsQueue, 'send', ENV.ruleJobsQueueUrl);
    // Exports and imports: messages to the portability worker, and presigned links to the archives only.
    bindTable(httpFunctions.portability.function, props.table, 'readWrite');
    bindSecret(httpFunctions.portability.function, props.jwtSecret, ENV.jwtSecretArn);
    bindPortabilityApi(httpFunctions.portability.function, { bucket: props.documentsBucket, queue: props.portabilityQueue });
    // The audit log: the auth function records logins, the audit function reads it (the events function, below,
    // appends what it derives from the table's stream). No function may change or delete an entry.
    bindTable(httpFunctions.audit.function, props.table, 'read');
    bindSecret(httpFunctions.audit.function, props.jwtSecret, ENV.jwtSecretArn);
    bindAuditLog(httpFunctions.audit.function, props.auditTable, 'read');
    bindAuditLog(httpFunctions.auth.function, props.auditTable, 'append');
    // Deleting a workspace is a message to the eraser.
    bindQueue(httpFunctions.workspaces.function, props.erasureQueue, 'send', ENV.erasureQueueUrl);
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

    ({ httpApi: this.httpApi, httpStage: this.httpStage } = createHttpApi(this, { functions: httpFunctions, fallback, logRemovalPolicy }));
    if (props.customDomain && props.edge === false) throw new Error('A custom domain needs the CloudFront edge (edge=false leaves none)');
    if (props.edge ?? true) {
      this.edge = new ApiEdge(this, 'Edge', {
        httpApi: this.httpApi,
        corsOrigins: props.corsOrigins,
        customDomain: props.customDomain,
        uploadsBucket: props.documentsBucket,
      });
      // The functions that count requests per client address; health and the 404 fallback reveal nothing.
      for (const group of RATE_LIMITED_GROUPS) this.edge.bindFunction(httpFunctions[group].function);
    }

    // WebSocket API
    // Verifies the same access tokens as the HTTP functions, in the auth message.
    const realtime = fn('realtime', jwtEnvironment);
    bindTable(realtime.function, props.table, 'readWrite');
    bindSecret(realtime.function, props.jwtSecret, ENV.jwtSecretArn);
    ({ webSocketApi: this.webSocketApi, webSocketStage: this.webSocketStage } = createWebSocketApi(this, { realtime, logRemovalPolicy }));
    // The channel itself pushes and closes (auth errors, limits); the events function (below) pushes the events
    // of the table's changes. No other function reaches the connections.
    bindWebSocket(realtime.function, this.webSocketApi, this.webSocketStage);

    const { ingest, ocrWorker, ocrSweeper, sourceSync, sourceScheduler, webhookDelivery, ruleJobs } = createQueueWorkers(this, {
      table: props.table,
      documentsBucket: props.documentsBucket,
      ocrQueues,
      ocrWorkers,
      ingestQueue: props.ingestQueue,
      sourceSyncQueue: props.sourceSyncQueue,
      sourceCredentialsKey: props.sourceCredentialsKey,
      imagingEnvironment,
      sourcesAllowPrivateNetworks: SOURCES_ALLOW_PRIVATE_NETWORKS,
      webhookDeliveryQueue: props.webhookDeliveryQueue,
      ruleJobsQueue: props.ruleJobsQueue,
      webhooksAllowPrivateNetworks: WEBHOOKS_ALLOW_PRIVATE_NETWORKS,
      logRemovalPolicy,
    });

    // The table's stream: the indexer keeps the search index in step (reading documents, their long texts in the
    // bucket and their labels), the events function pushes the P events of each change, recording in the table
    // which changes it published (the ledger) and dropping the connections it finds gone, and webhook-dispatch
    // records a delivery (in the table) for each webhook subscribed to a change's event and queues it.
    const indexer = fn('indexer', {}, Duration.seconds(INDEXER_TIMEOUT_SECONDS));
    bindTable(indexer.function, props.table, 'read');
    bindBucket(indexer.function, props.documentsBucket, 'read');
    searchAccess.bind(indexer.function, 'readWrite');
    const eventsFunction = fn('events', {}, Duration.seconds(EVENTS_TIMEOUT_SECONDS));
    bindTable(eventsFunction.function, props.table, 'read');
    bindChangeLedger(eventsFunction.function, props.table);
    bindConnectionCleanup(eventsFunction.function, props.table);
    bindWebSocket(eventsFunction.function, this.webSocketApi, this.webSocketStage);
    // The audit log is derived in the events function, not by a fourth reader of the stream (see docs/audit-and-erasure.md).
    bindAuditLog(eventsFunction.function, props.auditTable, 'append');
    const webhookDispatch = new AppFunction(this, 'WebhookDispatch', {
      group: 'webhook-dispatch',
      environment: {},
      timeout: Duration.seconds(WEBHOOK_DISPATCH_TIMEOUT_SECONDS),
      logRemovalPolicy,
    });
    bindTable(webhookDispatch.function, props.table, 'readWrite');
    bindQueue(webhookDispatch.function, props.webhookDeliveryQueue, 'send', ENV.webhookDeliveryQueueUrl);
    const changeConsumerFunctions = { indexer, events: eventsFunction, 'webhook-dispatch': webhookDispatch };
    this.changeConsumers = new ChangeConsumers(this, 'ChangeConsumers', {
      table: props.table,
      consumers: Object.fromEntries(Object.entries(changeConsumerFunctions).map(([name, consumer]) => [name, consumer.function])),
      removalPolicy: logRemovalPolicy,
    });
    // The index is checked against the table, and repaired, on a schedule: what a change the indexer gave up on
    // (its failure queue) or a lost index write left behind does not wait for someone to run the rebuild.
    new events.Rule(this, 'IndexReconcileSchedule', {
      schedule: events.Schedule.rate(Duration.hours(INDEX_RECONCILE_HOURS)),
      targets: [new targets.LambdaFunction(indexer.function, { event: events.RuleTargetInput.fromObject({ reconcile: true } satisfies ReconcileEvent) })],
    });

    const eraser = new Eraser(this, 'Eraser', {
      table: props.table,
      bucket: props.documentsBucket,
      queue: props.erasureQueue,
      searchAccess,
      webSocketApi: this.webSocketApi,
      webSocketStage: this.webSocketStage,
      logRemovalPolicy,
    }).appFunction;

    const portabilityWorker = createPortabilityWorker(this, {
      table: props.table,
      auditTable: props.auditTable,
      documentsBucket: props.documentsBucket,
      queue: props.portabilityQueue,
      sourceCredentialsKey: props.sourceCredentialsKey,
      logRemovalPolicy,
    });

    const bootstrap = createAdminBootstrap(this, {
      table: props.table,
      adminPasswordSecret: props.adminPasswordSecret,
      adminUsername: props.adminUsername,
      adminEmail: props.adminEmail,
      logRemovalPolicy,
    });
    const searchIndexSetup = createSearchIndexSetup(this, {
      searchAccess,
      indexReplicas: props.searchDomainSize.indexReplicas,
      indexUsers: [httpFunctions.search, indexer],
      logRemovalPolicy,
    });
    this.searchIndexSetup = searchIndexSetup.resource;

    this.functions = {
      ...httpFunctions,
      fallback,
      realtime,
      bootstrap,
      ingest,
      'ocr-worker': ocrWorker,
      'ocr-sweeper': ocrSweeper,
      'search-index-setup': searchIndexSetup.function,
      'source-sync': sourceSync,
      'source-scheduler': sourceScheduler,
      indexer,
      events: eventsFunction,
      'webhook-dispatch': webhookDispatch,
      'webhook-delivery': webhookDelivery,
      'rule-jobs': ruleJobs,
      eraser,
      'portability-worker': portabilityWorker,
    };

    // Every function that builds a container reads the plans at init: all of them get the same.
    for (const appFunction of Object.values(this.functions)) {
      for (const [name, value] of Object.entries(props.plans ?? {})) appFunction.function.addEnvironment(name, value);
    }

    this.monitoring = new Monitoring(this, 'Monitoring', {
      alarmEmail: props.alarmEmail,
      deadLetterQueues: props.deadLetterQueues,
      workQueues: {
        'ocr-normal': { queue: props.ocrQueue, maxAge: OCR_MAX_MESSAGE_AGE.normal },
        'ocr-high': { queue: props.ocrHighQueue, maxAge: OCR_MAX_MESSAGE_AGE.high },
        'source-sync': { queue: props.sourceSyncQueue, maxAge: SOURCE_SYNC_MAX_MESSAGE_AGE },
        portability: { queue: props.portabilityQueue, maxAge: PORTABILITY_MAX_MESSAGE_AGE },
      },
      changeConsumers: Object.fromEntries(
        Object.entries(changeConsumerFunctions).map(([name, consumer]) => [
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
}

/** The API tokens' longest life, checked at synth as the runtime's config would check API_TOKEN_MAX_DAYS. */
function apiTokenMaxDays(days: number | undefined): number {
  const value = days ?? 365;
  if (!Number.isInteger(value) || value < 1 || value > 3650) {
    throw new Error(`Context "apiTokenMaxDays" must be a whole number of days from 1 to 3650, got ${String(days)}`);
  }
  return value;
}
