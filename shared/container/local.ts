import * as os from 'node:os';
import { ApiGatewayConnectionSender } from '../adapters/aws/apigateway/connection-sender';
import { createConnectionsClient, createDynamoDocumentClient, type ClientOptions } from '../adapters/aws/clients';
import { createSqsClient } from '../adapters/aws/sqs/client';
import { createS3Client } from '../adapters/aws/s3/client';
import { joseTokens } from '../adapters/jwt/jose-token-service';
import { bucketProbe } from '../adapters/aws/s3/bucket-probe';
import { queueProbe } from '../adapters/aws/sqs/queue-probe';
import { tableProbe } from '../adapters/aws/dynamodb/table-probe';
import { S3FileStore } from '../adapters/aws/s3/file-store';
import { signalWrites } from '../adapters/aws/dynamodb/write-signal';
import { isChangeLedgerWrite } from '../adapters/aws/dynamodb/change-ledger';
import { S3LegacyObjectAdopter } from '../adapters/aws/s3/legacy-object-adoption';
import { SqsOcrJobQueue } from '../adapters/aws/sqs/ocr-job-queue';
import { sha256 } from '../adapters/crypto/sha256';
import { AesGcmCredentialVault } from '../adapters/crypto/aes-gcm-credential-vault';
import { SqsSyncQueue } from '../adapters/aws/sqs/sync-queue';
import { SqsRuleJobQueue } from '../adapters/aws/sqs/rule-job-queue';
import { SqsErasureQueue } from '../adapters/aws/sqs/erasure-queue';
import { lazyOpenIdClient } from '../adapters/oidc/lazy-openid-client';
import type { Clock } from '../domain/clock';
import { CachedConnectionRepository } from '../adapters/local/cached-connection-repository';
import { dynamoConnections } from './connection-store';
import { SqliteSearchIndex } from '../adapters/local/sqlite-search-index';
import { TesseractOcrEngine, type TesseractOcrEngineOptions } from '../adapters/local/tesseract-ocr-engine';
import type { ConnectionSender } from '../domain/connections/ports';
import type { HealthProbe } from '../domain/health/ports';
import type { OcrWorkerServices } from '../domain/ocr/process-ocr-job';
import { debugLogBusinessMetrics } from '../observability/logged-metrics';
import type { AppContainer, DocumentServices, OcrServices } from './app-container';
import { buildAppContainer, EVENT_SEND_TIMEOUT_MS } from './build-app-container';
import { auditOver } from './kit/audit';
import type { CommonEnv } from './config';
import { imagingServices } from './imaging';
import { WriteBehindRateLimitStore } from '../adapters/local/write-behind-rate-limit-store';
import { WriteBehindUsageMeter } from '../adapters/local/write-behind-usage-meter';
import { WebDavFolders } from '../adapters/webdav/webdav-client';
import { rememberHotReads } from '../adapters/local/remembered-reads';
import { dynamoSourceStores } from './source-stores';
import { requestServing } from './request-serving';
import { dynamoLegacyItems } from './legacy-data';
import { SqsWebhookDeliveryQueue } from '../adapters/aws/sqs/webhook-delivery-queue';
import { dynamoWebhookStores, type WebhookServices } from './webhook-services';
import { SqsPortabilityQueue } from '../adapters/aws/sqs/portability-queue';
import { dynamoPortabilityServices, type PortabilityServices } from './portability-services';

/** Where the emulators listen and what the local runtime provisioned in them. */
export interface LocalResources {
  endpoints: { dynamodb: string; s3: string; sqs: string };
  /** The runtime's private DynamoDB Local database: its access key id is a secret kept under DATA_DIR. */
  dynamodbCredentials: LocalCredentials;
  tableName: string;
  bucketName: string;
  ocrQueueUrl: string;
  ocrHighQueueUrl: string;
  /** Object-created events of staged uploads, as the cloud bucket's notification sends them. */
  ingestQueueUrl: string;
  /** Steps of source syncs. */
  sourceSyncQueueUrl: string;
  /** Webhook deliveries, and their retries. */
  webhookDeliveryQueueUrl: string;
  ruleJobsQueueUrl: string;
  /** Exports and imports of workspaces. */
  portabilityQueueUrl: string;
  /** Workspace erasures. */
  erasureQueueUrl: string;
  /** The audit log's table. */
  auditTableName: string;
}

export interface LocalCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/**
 * Static credentials, so no real AWS credentials are ever used locally. The S3 emulator (s3rver) accepts only
 * this pair and the SQS emulator any. DynamoDB Local keeps a database per access key id: the runtime uses its
 * own secret one (`LocalResources.dynamodbCredentials`), tests on an in-memory instance use this pair.
 */
export const LOCAL_CREDENTIALS: LocalCredentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
export const LOCAL_REGION = 'us-east-1';

export const localClientOptions = (endpoint: string, credentials: LocalCredentials = LOCAL_CREDENTIALS): ClientOptions => ({
  endpoint,
  region: LOCAL_REGION,
  credentials,
});

/**
 * OCR jobs the local runtime works on at once, per priority queue. Their pages share the engine's pool (one
 * process per core, high-priority pages first, workspaces then documents taking turns), so twice the cores keeps every core
 * reading while some jobs fetch their file or write their outcome; each job holds its file, which bounds memory.
 */
export const LOCAL_OCR_JOBS = { normal: 2 * os.availableParallelism(), high: os.availableParallelism() };
/** Jobs running side by side, for the queue's estimated completion: the normal queue's. */
export const LOCAL_OCR_WORKERS = LOCAL_OCR_JOBS.normal;
/** A processing job silent this long lost its worker (pages take seconds; a page is bounded by its timeout). */
export const LOCAL_OCR_STALE_AFTER_SECONDS = 300;

/**
 * Pages are read at 300 dpi and never less (a lower resolution hurts accuracy); a page above 40 megapixels at
 * 300 dpi (larger than A2, such as the 30-inch page of `enormous.pdf`) is refused as too large.
 */
export const LOCAL_OCR_LIMITS: TesseractOcrEngineOptions = { dpi: 300, minDpi: 300, maxPagePixels: 40_000_000 };

/** How the local runtime's events reach its gateway's sockets (see `localAppContainer`). */
export type LocalEventDelivery = { delivery: 'sdk'; endpoint: () => string } | { delivery: 'direct'; gateway: () => ConnectionSender };

/** Everything the local runtime's handlers, worker and sweep take. */
export type LocalContainer = AppContainer &
  DocumentServices &
  OcrServices &
  OcrWorkerServices &
  WebhookServices &
  PortabilityServices & {
    /** The whole index and the whole bucket, for the runtime's own upkeep (rebuild, adoption of old data). */
    searchIndex: SqliteSearchIndex;
    files: S3FileStore;
    rateLimits: WriteBehindRateLimitStore;
    /** Request counts of the workspaces' usage, written behind the requests (flushed on stop). */
    usageMeter: WriteBehindUsageMeter;
  };

/**
 * The local composition root: the same adapters as the cloud, with SDK clients pointed at the emulators on
 * loopback and the JWT key read from DATA_DIR instead of Secrets Manager.
 */
export function localAppContainer(options: {
  resources: LocalResources;
  jwtKey: Uint8Array;
  env: CommonEnv;
  clock?: Clock;
  /** Tesseract options (concurrency, limits); defaults fit the machine. */
  ocr?: TesseractOcrEngineOptions;
  /**
   * How events reach the local gateway's sockets (LOCAL_EVENT_DELIVERY). 'sdk': through the cloud's
   * @connections adapter and SDK client, to the gateway's URL. 'direct': handed to the gateway in this process.
   * Asked on the first event, since the gateway exists only after the container is built.
   */
  events: LocalEventDelivery;
  /** The SQLite file of the search index (under DATA_DIR), or ':memory:'. */
  searchIndexPath: string;
  /** The 32-byte key that seals source passwords (kept under DATA_DIR). */
  sourceCredentialsKey: Uint8Array;
  /** DATA_DIR: the system metrics report the disk it is on (default: the temp dir). */
  dataDir?: string;
  /** Called after each write to the table (the runtime wakes its stream consumers). */
  onTableWrite?: () => void;
}): LocalContainer {
  const { resources } = options;
  const db = createDynamoDocumentClient(localClientOptions(resources.endpoints.dynamodb, resources.dynamodbCredentials));
  // The change ledger's own writes come back on the stream as items no consumer follows: no reason to wake them.
  if (options.onTableWrite) signalWrites(db, options.onTableWrite, isChangeLedgerWrite);
  const s3 = createS3Client(localClientOptions(resources.endpoints.s3));
  const sqs = createSqsClient(localClientOptions(resources.endpoints.sqs));
  const engine = new TesseractOcrEngine({ ...LOCAL_OCR_LIMITS, ...options.ocr });
  const ocrEngineProbe: HealthProbe = {
    name: 'ocr',
    check: async () => {
      if (!(await engine.languages()).length) throw new Error('no OCR language installed');
    },
  };
  const files = new S3FileStore(s3, resources.bucketName);
  const imaging = imagingServices(process.env, { prestart: true });
  const searchIndex = new SqliteSearchIndex(options.searchIndexPath);
  let rateLimits: WriteBehindRateLimitStore | undefined;
  let usageMeter: WriteBehindUsageMeter | undefined;
  const app = buildAppContainer({
    db,
    tableName: resources.tableName,
    tokens: joseTokens(async () => options.jwtKey),
    env: options.env,
    ...(options.clock ? { clock: options.clock } : {}),
    connectionSender: localConnectionSender(options.events),
    search: searchIndex,
    files,
    ocrQueues: new SqsOcrJobQueue(sqs, { normal: resources.ocrQueueUrl, high: resources.ocrHighQueueUrl }),
    listings: (workspaceId) => searchIndex.forWorkspace(workspaceId),
    vault: new AesGcmCredentialVault(options.sourceCredentialsKey),
    syncQueue: new SqsSyncQueue(sqs, resources.sourceSyncQueueUrl),
    ruleJobs: new SqsRuleJobQueue(sqs, resources.ruleJobsQueueUrl),
    erasureQueue: new SqsErasureQueue(sqs, resources.erasureQueueUrl),
    audit: auditOver(resources.auditTableName),
    remoteFolders: (policy) => new WebDavFolders(policy),
    sourceStores: dynamoSourceStores,
    serving: requestServing,
    legacyData: (table, tableName) => [...dynamoLegacyItems(table, tableName), new S3LegacyObjectAdopter(s3, resources.bucketName)],
    // Every write of users, settings and revocations happens in this process too: what was read stays exact.
    decorateHotReads: rememberHotReads,
    // Every connection write happens in this process, so an in-memory view of the connections stays exact.
    connectionStore: dynamoConnections,
    decorateConnections: (connections, clock) => new CachedConnectionRepository(connections, clock),
    // The same holds for the rate-limit buckets: decided in memory, written behind the request.
    decorateRateLimits: (store) => (rateLimits = new WriteBehindRateLimitStore(store)),
    // And for the usage counts of requests: counted in memory, added to the table behind the requests.
    decorateUsageMeter: (meter) => (usageMeter = new WriteBehindUsageMeter(meter)),
    oidcClient: lazyOpenIdClient,
    metrics: debugLogBusinessMetrics,
    ...(options.dataDir ? { host: { dataPath: options.dataDir } } : {}),
    healthProbes: [
      { name: 'search', check: () => searchIndex.ping() },
      tableProbe(db, resources.tableName),
      bucketProbe(s3, resources.bucketName),
      queueProbe(sqs, resources.ocrQueueUrl),
      ocrEngineProbe,
    ],
  });
  return {
    ...app,
    files,
    searchIndex,
    rateLimits: rateLimits!,
    usageMeter: usageMeter!,
    thumbnails: imaging.thumbnails,
    sha256,
    ocrLanguages: () => engine.languages(),
    ocrWorkers: LOCAL_OCR_WORKERS,
    engine,
    textLayer: imaging.textLayer,
    searchablePdf: imaging.searchablePdf,
    staleAfterSeconds: LOCAL_OCR_STALE_AFTER_SECONDS,
    webhookStores: dynamoWebhookStores(db, resources.tableName),
    deliveryQueue: new SqsWebhookDeliveryQueue(sqs, resources.webhookDeliveryQueueUrl),
    portability: dynamoPortabilityServices(db, resources.tableName, s3, resources.bucketName, new SqsPortabilityQueue(sqs, resources.portabilityQueueUrl)),
  };
}

/**
 * 'sdk': the cloud's @connections adapter and SDK client, pointed at the local gateway. 'direct': the gateway's
 * own sender, which skips a signed HTTP request per message (bench/README.md, real-time).
 */
function localConnectionSender(events: LocalEventDelivery): ConnectionSender {
  if (events.delivery === 'direct') {
    return { send: (id, message) => events.gateway().send(id, message), close: (id) => events.gateway().close(id) };
  }
  return new ApiGatewayConnectionSender(() => {
    const url = events.endpoint();
    return createConnectionsClient({ ...localClientOptions(url), endpoint: url, requestTimeoutMs: EVENT_SEND_TIMEOUT_MS });
  });
}
