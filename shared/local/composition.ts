import * as os from 'node:os';
import { ApiGatewayConnectionSender } from '../adapters/aws/apigateway/connection-sender';
import { createConnectionsClient, createDynamoDocumentClient } from '../adapters/aws/clients';
import { DynamoChangeLedger, isChangeLedgerWrite } from '../adapters/aws/dynamodb/change-ledger';
import { DynamoConnectionRepository } from '../adapters/aws/dynamodb/connection-repository';
import { DynamoErasureRepository } from '../adapters/aws/dynamodb/erasure-repository';
import { DynamoNotificationRepository } from '../adapters/aws/dynamodb/notification-repository';
import { DynamoQuotaCounts } from '../adapters/aws/dynamodb/quota-counts';
import { DynamoSourceSchedule } from '../adapters/aws/dynamodb/source-schedule';
import { signalWrites } from '../adapters/aws/dynamodb/write-signal';
import { createS3Client } from '../adapters/aws/s3/client';
import { S3FileStore } from '../adapters/aws/s3/file-store';
import { createSqsClient } from '../adapters/aws/sqs/client';
import { SqsErasureQueue } from '../adapters/aws/sqs/erasure-queue';
import { SqsOcrJobQueue } from '../adapters/aws/sqs/ocr-job-queue';
import { SqsPortabilityQueue } from '../adapters/aws/sqs/portability-queue';
import { SqsRuleJobQueue } from '../adapters/aws/sqs/rule-job-queue';
import { SqsSyncQueue } from '../adapters/aws/sqs/sync-queue';
import { SqsWebhookDeliveryQueue } from '../adapters/aws/sqs/webhook-delivery-queue';
import { AesGcmCredentialVault } from '../adapters/crypto/aes-gcm-credential-vault';
import { joseTokens } from '../adapters/jwt/jose-token-service';
import { CachedConnectionRepository } from '../adapters/local/cached-connection-repository';
import { rememberHotReads } from '../adapters/local/remembered-reads';
import { SqliteSearchIndex } from '../adapters/local/sqlite-search-index';
import { TesseractOcrEngine, type TesseractOcrEngineOptions } from '../adapters/local/tesseract-ocr-engine';
import { WriteBehindRateLimitStore } from '../adapters/local/write-behind-rate-limit-store';
import { WriteBehindUsageMeter } from '../adapters/local/write-behind-usage-meter';
import { lazyRe2RegexEngine } from '../adapters/re2/lazy-re2-regex-engine';
import { WebDavFolders } from '../adapters/webdav/webdav-client';
import { auditOver } from '../container/kit/audit';
import type { CommonEnv } from '../container/kit/config';
import { connectionEventHub, EVENT_SEND_TIMEOUT_MS } from '../container/kit/event-hub';
import { imagingServices } from '../container/kit/imaging';
import { dynamoPortabilityServices } from '../container/kit/portability';
import { requestGate } from '../container/kit/request-gate';
import { passwordHasher } from '../container/kit/serving';
import type { Table } from '../container/kit/table';
import { dynamoWebhookStores } from '../container/kit/webhooks';
import { workspaceTableStores } from '../container/kit/workspace-data';
import { systemClock, type Clock } from '../domain/clock';
import type { ConnectionSender } from '../domain/connections/ports';
import { debugLogBusinessMetrics } from '../observability/logged-metrics';
import { localClientOptions, type LocalResources } from './local-clients';

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

/** How the local runtime's events reach its gateway's sockets (see {@link localParts}). */
export type LocalEventDelivery = { delivery: 'sdk'; endpoint: () => string } | { delivery: 'direct'; gateway: () => ConnectionSender };

export interface LocalPartsOptions {
  resources: LocalResources;
  jwtKey: Uint8Array;
  env: CommonEnv;
  clock?: Clock;
  /** Tesseract options (concurrency, limits); defaults fit the machine. */
  ocr?: TesseractOcrEngineOptions;
  /**
   * How events reach the local gateway's sockets (LOCAL_EVENT_DELIVERY). 'sdk': through the cloud's
   * @connections adapter and SDK client, to the gateway's URL. 'direct': handed to the gateway in this process.
   * Asked on the first event, since the gateway exists only after the handlers are built.
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
}

/** What the local runtime builds once and hands to each handler's deps (`localHandlerDeps`, handler-deps.ts). */
export type LocalParts = ReturnType<typeof localParts>;

/**
 * The local composition root: the cloud's adapters and the kit's builders, each built once over SDK clients
 * pointed at the emulators on loopback, with the JWT key read from DATA_DIR instead of Secrets Manager. This
 * process is the only writer of its table, so the stores every request reads keep in memory what they read or
 * count (remembered reads, the connections' view, rate limits and usage written behind the requests).
 */
export function localParts(options: LocalPartsOptions) {
  const { resources, env } = options;
  const clock = options.clock ?? systemClock;
  const db = createDynamoDocumentClient(localClientOptions(resources.endpoints.dynamodb, resources.dynamodbCredentials));
  // The change ledger's own writes come back on the stream as items no consumer follows: no reason to wake them.
  if (options.onTableWrite) signalWrites(db, options.onTableWrite, isChangeLedgerWrite);
  const table: Table = { db, name: resources.tableName };
  const s3 = createS3Client(localClientOptions(resources.endpoints.s3));
  const sqs = createSqsClient(localClientOptions(resources.endpoints.sqs));
  let rateLimits: WriteBehindRateLimitStore | undefined;
  let usageMeter: WriteBehindUsageMeter | undefined;
  const tokens = joseTokens(async () => options.jwtKey)({ issuer: env.JWT_ISSUER, audience: env.JWT_AUDIENCE, ttlSeconds: env.JWT_TTL_SECONDS, clock });
  const gate = requestGate({
    table,
    env,
    clock,
    tokens,
    decorate: {
      rememberHotReads,
      rateLimits: (store) => (rateLimits = new WriteBehindRateLimitStore(store)),
      usageMeter: (meter) => (usageMeter = new WriteBehindUsageMeter(meter)),
    },
  });
  const connections = new CachedConnectionRepository(new DynamoConnectionRepository(db, table.name, clock), clock);
  const connectionSender = localConnectionSender(options.events);
  const engine = new TesseractOcrEngine({ ...LOCAL_OCR_LIMITS, ...options.ocr });
  return {
    resources,
    env,
    table,
    s3,
    sqs,
    gate,
    clock,
    /** The write-behind stores, flushed on stop (the gate's decorations made them as it was built). */
    rateLimits: rateLimits!,
    usageMeter: usageMeter!,
    stores: workspaceTableStores(table, clock, gate),
    quotaCounts: new DynamoQuotaCounts(db, table.name),
    notifications: new DynamoNotificationRepository(db, table.name),
    erasures: new DynamoErasureRepository(db, table.name),
    changeLedger: new DynamoChangeLedger(db, table.name),
    sourceSchedule: new DynamoSourceSchedule(db, table.name),
    /** The whole bucket and the whole index, for the runtime's own upkeep (rebuild, erasure, adoption of old data). */
    bucket: new S3FileStore(s3, resources.bucketName),
    searchIndex: new SqliteSearchIndex(options.searchIndexPath),
    ocrQueues: new SqsOcrJobQueue(sqs, { normal: resources.ocrQueueUrl, high: resources.ocrHighQueueUrl }),
    syncQueue: new SqsSyncQueue(sqs, resources.sourceSyncQueueUrl),
    ruleJobs: new SqsRuleJobQueue(sqs, resources.ruleJobsQueueUrl),
    erasureQueue: new SqsErasureQueue(sqs, resources.erasureQueueUrl),
    deliveryQueue: new SqsWebhookDeliveryQueue(sqs, resources.webhookDeliveryQueueUrl),
    portability: dynamoPortabilityServices(db, table.name, s3, resources.bucketName, new SqsPortabilityQueue(sqs, resources.portabilityQueueUrl)),
    webhookStores: dynamoWebhookStores(db, table.name),
    ...auditOver(resources.auditTableName)(db, clock),
    connections,
    connectionSender,
    eventHub: connectionEventHub(connections, connectionSender, clock),
    passwords: passwordHasher(env),
    vault: new AesGcmCredentialVault(options.sourceCredentialsKey),
    remoteFolders: new WebDavFolders({ allowPrivateNetworks: env.SOURCES_ALLOW_PRIVATE_NETWORKS, requestTimeoutMs: env.SOURCE_REQUEST_TIMEOUT_SECONDS * 1000 }),
    metrics: debugLogBusinessMetrics,
    regex: lazyRe2RegexEngine(),
    engine,
    imaging: imagingServices(process.env, { prestart: true }),
    dataDir: options.dataDir,
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
