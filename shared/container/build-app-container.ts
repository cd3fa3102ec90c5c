import { DynamoApiTokenRepository } from '../adapters/aws/dynamodb/api-token-repository';
import { DynamoQuotaCounts } from '../adapters/aws/dynamodb/quota-counts';
import { DynamoLabelRepository } from '../adapters/aws/dynamodb/label-repository';
import { DynamoNotificationRepository } from '../adapters/aws/dynamodb/notification-repository';
import { DynamoPendingUploadRepository } from '../adapters/aws/dynamodb/pending-upload-repository';
import type { TokenSettings } from '../adapters/jwt/jose-token-service';
import type { OpenIdClientOidcOptions } from '../adapters/oidc/openid-client-oidc';
import type { TokenService } from '../domain/auth/ports';
import { systemClock, type Clock } from '../domain/clock';
import type { DocumentListingIndex } from '../domain/documents/ports';
import type { FileStore } from '../domain/files/ports';
import type { ConnectionRepository, ConnectionSender } from '../domain/connections/ports';
import { workspaceFileStore } from '../domain/documents/bucket-layout';
import type { OcrJobQueues } from '../domain/ocr/ports';
import type { SearchIndexStore } from '../domain/search/ports';
import { DynamoChangeLedger } from '../adapters/aws/dynamodb/change-ledger';
import type { HealthProbe } from '../domain/health/ports';
import type { OidcClient } from '../domain/sso/ports';
import type { LegacyDataAdopter } from '../domain/workspaces/ports';
import type { EdgeOrigin } from '../http/edge';
import { oidcSettings, type CommonEnv } from './config';
import { accountStores, workspaceDirectory } from './kit/accounts';
import { authenticator, requestMeter } from './kit/request-gate';
import type { Table } from './kit/table';
import { connectionEventHub } from './kit/event-hub';
import { documentRepository, ocrJobRepository, ruleLog, workspaceUsageMeter } from './kit/workspace-stores';
import { oidcServices } from './kit/oidc';
import type { NodeHostProbe } from '../adapters/node/host-probe';
import type { BusinessMetrics } from '../domain/metrics/ports';
import type { DynamoRateLimitStore } from '../adapters/aws/dynamodb/rate-limit-store';
import type { RateLimitStore } from '../domain/limits/ports';
import type { UsageMeter } from '../domain/usage/ports';
import type { requestServing } from './request-serving';
import type { WebDavFoldersOptions } from '../adapters/webdav/options';
import type { HotReadStores } from '../adapters/local/remembered-reads';
import type { CredentialVault, SyncQueue } from '../domain/sources/ports';
import type { RemoteFolders } from '../domain/sources/remote-folder';
import { DynamoRuleRepository } from '../adapters/aws/dynamodb/rule-repository';
import { DynamoRuleDocuments } from '../adapters/aws/dynamodb/rule-documents';
import { lazyRe2RegexEngine } from '../adapters/re2/lazy-re2-regex-engine';
import type { RuleJobQueue } from '../domain/rules/ports';
import type { ErasureQueue } from '../domain/erasure/ports';
import { DynamoErasureRepository } from '../adapters/aws/dynamodb/erasure-repository';

import type { AppContainer, OidcServices, SourceStores, WorkspaceData } from './app-container';

export interface ContainerParts {
  /** The DynamoDB document client, as the repositories take it. */
  db: Table['db'];
  tableName: string;
  /** Makes the token service (`joseTokens(key)`). */
  tokens: (settings: TokenSettings) => TokenService;
  env: CommonEnv;
  healthProbes: HealthProbe[];
  clock?: Clock;
  /** The WebSocket gateway's @connections API. */
  connectionSender: ConnectionSender;
  /** Makes the connections' repository (`dynamoConnections`). */
  connectionStore: (db: ContainerParts['db'], tableName: string, clock: Clock) => ConnectionRepository;
  /** The search index of every workspace. */
  search: SearchIndexStore;
  /** The bucket, whole; each workspace gets its part of it. */
  files: FileStore;
  /** The OCR queues; each workspace's jobs carry its id. */
  ocrQueues: OcrJobQueues;
  /**
   * Makes the adopters of data written before workspaces (the table's items; locally also the bucket's objects
   * under DATA_DIR). Only the roots that create the operator's account (the bootstrap, the local runtime) pass it,
   * so no other bundle carries them; without it there is nothing to adopt.
   */
  legacyData?: (db: ContainerParts['db'], tableName: string) => LegacyDataAdopter[];
  /** Listings served by the search index (the local runtime's SQLite index). */
  listings?: (workspaceId: string) => DocumentListingIndex;
  /** What the system metrics report on: the data path (default: the temp dir, Lambda's /tmp) and a memory bound. */
  host?: ConstructorParameters<typeof NodeHostProbe>[0];
  /** Makes the password hasher, the rate limits and the host probe (`requestServing`). */
  serving: typeof requestServing;
  /** The cloud's CloudFront edge in front of the HTTP API (none locally). */
  edge?: EdgeOrigin;
  /** The OIDC client secret when it is not in the environment (Secrets Manager in the cloud). */
  oidcClientSecret?: () => Promise<string | undefined>;
  /**
   * Makes the OIDC relying party (`lazyOpenIdClient`). Only the roots of what serves the OIDC routes pass it, so
   * that no other Lambda bundle carries openid-client; OIDC_* set without it stops the start.
   */
  oidcClient?: (options: OpenIdClientOidcOptions) => OidcClient;
  /** Makes the reader of sources' remote folders (`new WebDavFolders(policy)`). */
  remoteFolders: (options: WebDavFoldersOptions) => RemoteFolders;
  /** Wraps the DynamoDB rate-limit store (the local runtime, its only writer, keeps the buckets in memory). */
  decorateRateLimits?: (store: DynamoRateLimitStore) => RateLimitStore;
  /**
   * Wraps the stores every request reads: users, their settings, revoked tokens (the local runtime, the only
   * writer of its table, remembers what it read: `rememberHotReads`).
   */
  decorateHotReads?: (stores: HotReadStores) => HotReadStores;
  /** Wraps the DynamoDB connection repository (the local runtime keeps a view of it in memory). */
  decorateConnections?: (connections: ConnectionRepository, clock: Clock) => ConnectionRepository;
  /** Wraps the usage meter of requests (the local runtime counts in memory and writes behind the requests). */
  decorateUsageMeter?: (meter: UsageMeter) => UsageMeter;
  /** Makes the sources' stores (`dynamoSourceStores`). */
  sourceStores: (db: ContainerParts['db'], tableName: string) => SourceStores;
  /** Seals source passwords (KMS in the cloud, a key under DATA_DIR locally). */
  vault: CredentialVault;
  /** The queue of sync steps. */
  syncQueue: SyncQueue;
  /** Where business metrics go. */
  metrics: BusinessMetrics;
  /** The queue of rule runs' steps. */
  ruleJobs: RuleJobQueue;
  /** The queue of workspace erasures. */
  erasureQueue: ErasureQueue;
  /** The audit log (its own, append-only table: `auditOver(name)`) and where logins are recorded. */
  audit: (db: Table['db'], clock: Clock) => Pick<AppContainer, 'audit' | 'authEvents'>;
}

export { EVENT_SEND_TIMEOUT_MS } from './kit/event-hub';

/**
 * The whole container: every port of every handler, composed from the kit once. The local runtime builds it
 * (one process serves every route and runs every worker) and so do the tests; a Lambda function's entry composes
 * only its handler's deps (functions/<group>/index.ts). Every part is required, so a missing one is a compile
 * error.
 */
export function buildAppContainer(parts: ContainerParts): AppContainer {
  const clock = parts.clock ?? systemClock;
  const table = { db: parts.db, name: parts.tableName };
  const { users, settings, revokedTokens } = accountStores(table, parts.decorateHotReads);
  const tokens =
    parts.tokens({ issuer: parts.env.JWT_ISSUER, audience: parts.env.JWT_AUDIENCE, ttlSeconds: parts.env.JWT_TTL_SECONDS, clock });
  const stored = parts.connectionStore(parts.db, parts.tableName, clock);
  const connections = parts.decorateConnections?.(stored, clock) ?? stored;
  const { connectionSender } = parts;
  const oidc = oidcOf(parts, clock);
  const eventHub = connectionEventHub(connections, connectionSender, clock);
  const apiTokens = new DynamoApiTokenRepository(parts.db, parts.tableName);
  const { files, ocrQueues } = parts;
  const sourceStores = parts.sourceStores(parts.db, parts.tableName);
  const { usage, meter } = requestMeter(table, clock, parts.decorateUsageMeter);
  const { plans, workspaces, workspaceStatus } = workspaceDirectory(table, parts.env, clock);
  const documentsOf = documentRepository(table, clock, { plans, workspaceStatus });
  const ocrJobsOf = ocrJobRepository(table, clock, { plans, workspaceStatus });
  const forWorkspace = (workspaceId: string): WorkspaceData => {
    const documents = documentsOf(workspaceId);
    const labels = new DynamoLabelRepository(parts.db, parts.tableName, workspaceId);
    const workspaceFiles = workspaceFileStore(files, workspaceId);
    const listingIndex = parts.listings?.(workspaceId);
    return {
      workspaceId,
      documents,
      labels,
      uploads: new DynamoPendingUploadRepository(parts.db, parts.tableName, workspaceId, clock),
      ocrJobs: ocrJobsOf(workspaceId),
      files: workspaceFiles,
      ocrQueue: ocrQueues.forWorkspace(workspaceId),
      searchIndex: parts.search.forWorkspace(workspaceId),
      ...(listingIndex ? { listingIndex } : {}),
      usageMeter: workspaceUsageMeter(meter, workspaceId),
      ...sourceStores.forWorkspace(workspaceId),
      rules: new DynamoRuleRepository(parts.db, parts.tableName, workspaceId),
      ruleDocuments: new DynamoRuleDocuments(parts.db, parts.tableName, workspaceId, workspaceFiles),
    };
  };
  return {
    clock,
    users,
    workspaces,
    workspaceStatus,
    plans,
    quotaCounts: new DynamoQuotaCounts(parts.db, parts.tableName),
    usage,
    settings,
    notifications: new DynamoNotificationRepository(parts.db, parts.tableName),
    forWorkspace,
    legacyData: parts.legacyData?.(parts.db, parts.tableName) ?? [],
    eventHub,
    connections,
    connectionSender,
    wsAuthTimeoutSeconds: parts.env.WS_AUTH_TIMEOUT_SECONDS,
    revokedTokens,
    apiTokens,
    apiTokenMaxDays: parts.env.API_TOKEN_MAX_DAYS,
    tokens,
    registrationMode: parts.env.REGISTRATION_MODE,
    refreshGraceSeconds: parts.env.JWT_REFRESH_GRACE_SECONDS,
    corsOrigins: parts.env.CORS_ORIGINS,
    ...(parts.edge ? { edge: parts.edge } : {}),
    healthProbes: parts.healthProbes,
    metrics: parts.metrics,
    authenticate: authenticator({ tokens, users, revokedTokens, apiTokens, workspaceStatus, clock }),
    ...parts.serving({ table, env: parts.env, host: parts.host, decorateRateLimits: parts.decorateRateLimits }, clock, meter),
    oidc,
    vault: parts.vault,
    remoteFolders: parts.remoteFolders({
      allowPrivateNetworks: parts.env.SOURCES_ALLOW_PRIVATE_NETWORKS,
      requestTimeoutMs: parts.env.SOURCE_REQUEST_TIMEOUT_SECONDS * 1000,
    }),
    syncQueue: parts.syncQueue,
    sourceSchedule: sourceStores.schedule,
    changeLedger: new DynamoChangeLedger(parts.db, parts.tableName),
    regex: lazyRe2RegexEngine(),
    ruleJobs: parts.ruleJobs,
    ruleLog,
    erasures: new DynamoErasureRepository(parts.db, parts.tableName),
    erasureQueue: parts.erasureQueue,
    ...parts.audit(parts.db, clock),
  };
}

/** Reads the OIDC configuration at init (a partial one fails here); nothing talks to the provider yet. */
function oidcOf(parts: ContainerParts, clock: Clock): OidcServices | null {
  if (!parts.oidcClient) {
    if (oidcSettings(parts.env)) throw new Error('Invalid configuration: OIDC_ISSUER: is set, but this function serves no single sign-on');
    return null;
  }
  return oidcServices({ table: { db: parts.db, name: parts.tableName }, env: parts.env, clock, client: parts.oidcClient, clientSecret: parts.oidcClientSecret });
}
