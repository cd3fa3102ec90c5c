import type { RegistrationMode } from '../manifest';
import { tmpdir } from 'node:os';
import { ScryptPasswordHasher } from '../adapters/crypto/scrypt-password-hasher';
import { DynamoRevokedTokenStore } from '../adapters/aws/dynamodb/revoked-token-store';
import { DynamoSettingsRepository } from '../adapters/aws/dynamodb/settings-repository';
import { DynamoUserRepository } from '../adapters/aws/dynamodb/user-repository';
import { DynamoWorkspaceRepository } from '../adapters/aws/dynamodb/workspace-repository';
import { DynamoDocumentRepository } from '../adapters/aws/dynamodb/document-repository';
import { DynamoLabelRepository } from '../adapters/aws/dynamodb/label-repository';
import { DynamoNotificationRepository } from '../adapters/aws/dynamodb/notification-repository';
import { DynamoOcrJobRepository } from '../adapters/aws/dynamodb/ocr-job-repository';
import { DynamoPendingUploadRepository } from '../adapters/aws/dynamodb/pending-upload-repository';
import { DynamoConnectionRepository } from '../adapters/aws/dynamodb/connection-repository';
import { DynamoOidcLoginStore } from '../adapters/aws/dynamodb/oidc-login-store';
import { JoseTokenService } from '../adapters/jwt/jose-token-service';
import type { OpenIdClientOidcOptions } from '../adapters/oidc/openid-client-oidc';
import { authenticate } from '../domain/auth/authenticate';
import type { Principal } from '../domain/principal';
import type { RevokedTokenStore, TokenService } from '../domain/auth/ports';
import { systemClock, type Clock } from '../domain/clock';
import type { DocumentListingIndex, DocumentRepository, PendingUploadRepository } from '../domain/documents/ports';
import type { FileStore } from '../domain/files/ports';
import { silentEventHub, type EventHub } from '../domain/events/ports';
import type { ConnectionRepository, ConnectionSender } from '../domain/connections/ports';
import { ConnectionEventPublisher } from '../domain/events/publisher';
import { workspaceFileStore } from '../domain/documents/bucket-layout';
import type { NotificationRepository } from '../domain/notifications/ports';
import type { OcrJobQueue, OcrJobQueues, OcrJobRepository, OcrEngine } from '../domain/ocr/ports';
import type { SearchIndex, SearchIndexStore } from '../domain/search/ports';
import type { ChangeLedger } from '../domain/changes/ports';
import { DynamoChangeLedger } from '../adapters/aws/dynamodb/change-ledger';
import type { ThumbnailRenderer } from '../domain/documents/thumbnails';
import type { HealthProbe } from '../domain/health/ports';
import type { LabelRepository } from '../domain/labels/ports';
import type { SettingsRepository } from '../domain/settings/ports';
import type { OidcClient, PendingLoginStore, SsoUserPolicy } from '../domain/sso/ports';
import type { PasswordHasher, UserRepository } from '../domain/users/ports';
import type { LegacyDataAdopter, WorkspaceRepository } from '../domain/workspaces/ports';
import { DynamoLegacyItemAdopter } from '../adapters/aws/dynamodb/legacy-item-adoption';
import type { CorsOrigins } from '../http/cors';
import type { EdgeOrigin } from '../http/edge';
import { logger } from '../logger';
import { oidcSettings, type CommonEnv } from './config';
import { NodeHostProbe } from '../adapters/node/host-probe';
import type { HostProbe } from '../domain/system/ports';
import { noBusinessMetrics, type BusinessMetrics } from '../domain/metrics/ports';
import type { DynamoRateLimitStore } from '../adapters/aws/dynamodb/rate-limit-store';
import type { RequestOrigin } from '../domain/limits/limit-request';
import type { LoginAttemptGuard, RateLimitStore } from '../domain/limits/ports';
import type { RateDecision } from '../domain/limits/rate-policy';
import { DynamoUsageRepository } from '../adapters/aws/dynamodb/usage-repository';
import type { UsageMeter, UsageRepository, WorkspaceUsageMeter } from '../domain/usage/ports';
import { meterRequests, requestLimits } from './request-limits';
import type { WebDavFoldersOptions } from '../adapters/webdav/webdav-client';
import type { HotReadStores } from '../adapters/local/remembered-reads';
import type { CredentialVault, SourceRepository, SourceSchedule, SyncQueue, SyncStateStore } from '../domain/sources/ports';
import type { RemoteFolders } from '../domain/sources/remote-folder';

/** Everything a handler may use, whichever runtime built it. Handlers receive it; they never build adapters. */
export interface AppContainer {
  clock: Clock;
  users: UserRepository;
  workspaces: WorkspaceRepository;
  /** Each workspace's usage by month, for billing (read by its admin, the operator and `npm run usage`). */
  usage: UsageRepository;
  settings: SettingsRepository;
  notifications: NotificationRepository;
  /**
   * One workspace's data: its repositories, files, OCR queue, index view and events. The only way to reach
   * documents, labels, OCR jobs or files, so that no use case can read across workspaces (see {@link inWorkspace}).
   */
  forWorkspace(workspaceId: string): WorkspaceData;
  /** Moves data written before workspaces into the first workspace (run by the bootstrap). */
  legacyData: LegacyDataAdopter[];
  /** Real-time events to the WebSocket clients, per workspace; silent in a function given no WebSocket endpoint. */
  eventHub: EventHub;
  /** The WebSocket connections and their state. */
  connections: ConnectionRepository;
  /** Pushes to and closes WebSocket connections; throws on use in a function given no WebSocket endpoint. */
  connectionSender: ConnectionSender;
  /** A WebSocket connection that has not authenticated after this long is closed. */
  wsAuthTimeoutSeconds: number;
  revokedTokens: RevokedTokenStore;
  passwords: PasswordHasher;
  tokens: TokenService;
  registrationMode: RegistrationMode;
  refreshGraceSeconds: number;
  corsOrigins: CorsOrigins;
  /** Behind the cloud's CloudFront edge: the HTTP handlers answer only requests that came through it. */
  edge?: EdgeOrigin;
  healthProbes: HealthProbe[];
  /** The answering instance, for the system metrics. */
  host: HostProbe;
  authenticate(token: string): Promise<Principal>;
  /**
   * Counts a request against its caller's rate limits (RATE_LIMIT_*), failing open, and an authenticated one
   * (`origin.workspaceId`) in its workspace's usage (`api_requests`), which never fails or refuses it.
   */
  limits(origin: RequestOrigin): Promise<RateDecision | null>;
  /** Slows password guessing per username, failing open. */
  loginAttempts: LoginAttemptGuard;
  /** Single sign-on; null when no provider is configured (the OIDC routes answer 404). */
  oidc: OidcServices | null;
  /** Seals and opens source passwords (throws on use in a function given no key). */
  vault: CredentialVault;
  /**
   * Reads sources' remote folders, refusing private addresses unless SOURCES_ALLOW_PRIVATE_NETWORKS (throws on
   * use in a function given no WebDAV client).
   */
  remoteFolders: RemoteFolders;
  /** Hands sync steps to the sync workers (throws on use in a function given no sync queue). */
  syncQueue: SyncQueue;
  /** Every workspace's due sources and stalled syncs, for the schedule. */
  sourceSchedule: SourceSchedule;
  /** Counts documents ingested, pages OCRed, OCR failures and throttles; never fails the work. */
  metrics: BusinessMetrics;
  /** Which table changes the stream consumers have acted on (their events are pushed once). */
  changeLedger: ChangeLedger;
}

/**
 * One workspace's part of every store. Each member reaches only the workspace's items: the repositories hold
 * its keys, the file store its prefix, the index view filters by it and the queue stamps it on each job. (Its
 * events follow the table's stream: the `events` consumer addresses them through the event hub.)
 */
export interface WorkspaceData {
  workspaceId: string;
  documents: DocumentRepository;
  uploads: PendingUploadRepository;
  labels: LabelRepository;
  ocrJobs: OcrJobRepository;
  files: FileStore;
  ocrQueue: OcrJobQueue;
  /** The workspace's view of the search index (throws on use where the function has none). */
  searchIndex: SearchIndex;
  /** Serves filtered and sorted listings where the runtime has one (the local search index). */
  listingIndex?: DocumentListingIndex;
  /** Counts the workspace's requests of the month (searches); never fails. */
  usageMeter: WorkspaceUsageMeter;
  /** The workspace's sources and their syncs. */
  sources: SourceRepository;
  /** What the workspace's syncs remember of the remote trees, and their work lists. */
  syncState: SyncStateStore;
}

/** The container as a use case acting for a caller gets it: every store scoped to the caller's workspace. */
export type InWorkspace<C extends AppContainer> = Omit<C, keyof WorkspaceData> & WorkspaceData;

/** Scopes the container to the caller's workspace (the principal's, from the token; never one a request names). */
export const inWorkspace = <C extends AppContainer>(c: C, caller: { workspaceId: string }): InWorkspace<C> => ({
  ...c,
  ...c.forWorkspace(caller.workspaceId),
});

/** The OIDC relying party, its pending logins, how first logins become users, and where the token goes. */
export interface OidcServices {
  client: OidcClient;
  pendingLogins: PendingLoginStore;
  policy: SsoUserPolicy;
  /** The callback redirects here with the token in the fragment; null: it answers JSON. */
  frontendUrl: string | null;
}

/** The sources' stores: each workspace's sources and sync state, and the schedule across workspaces. */
export interface SourceStores {
  forWorkspace(workspaceId: string): { sources: SourceRepository; syncState: SyncStateStore };
  schedule: SourceSchedule;
}

export interface ContainerParts {
  /** The DynamoDB document client, as the repositories take it. */
  db: ConstructorParameters<typeof DynamoUserRepository>[0];
  tableName: string;
  jwtKey: () => Promise<Uint8Array>;
  env: CommonEnv;
  healthProbes: HealthProbe[];
  clock?: Clock;
  /** The WebSocket gateway's @connections API; without it events are not published. */
  connectionSender?: ConnectionSender;
  /** The search index of every workspace; without it nothing is indexed (and nothing large-text is read). */
  search?: SearchIndexStore;
  /** The bucket, whole; each workspace gets its part of it. */
  files?: FileStore;
  /** The OCR queues; each workspace's jobs carry its id. */
  ocrQueues?: OcrJobQueues;
  /** Moves the bucket's objects written before workspaces (the local runtime's bucket: DATA_DIR adoption). */
  legacyObjects?: LegacyDataAdopter;
  /** Listings served by the search index (the local runtime's SQLite index). */
  listings?: (workspaceId: string) => DocumentListingIndex;
  /** What the system metrics report on: the data path (default: the temp dir, Lambda's /tmp) and a memory bound. */
  host?: ConstructorParameters<typeof NodeHostProbe>[0];
  /** The cloud's CloudFront edge in front of the HTTP API (none locally). */
  edge?: EdgeOrigin;
  /** The OIDC client secret when it is not in the environment (Secrets Manager in the cloud). */
  oidcClientSecret?: () => Promise<string | undefined>;
  /**
   * Makes the OIDC relying party (`lazyOpenIdClient`). Only the roots of what serves the OIDC routes pass it, so
   * that no other Lambda bundle carries openid-client; OIDC_* set without it stops the start.
   */
  oidcClient?: (options: OpenIdClientOidcOptions) => OidcClient;
  /**
   * Makes the reader of sources' remote folders (`webDavFolders`). Only the roots of what manages and syncs
   * sources pass it, so that no other Lambda bundle carries the WebDAV client and its XML parser.
   */
  remoteFolders?: (options: WebDavFoldersOptions) => RemoteFolders;
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
  /**
   * Makes the sources' stores (`dynamoSourceStores`). Only the roots of what manages, syncs and schedules sources
   * pass it, so that no other Lambda bundle carries those repositories.
   */
  sourceStores?: (db: ContainerParts['db'], tableName: string) => SourceStores;
  /** Seals source passwords (KMS in the cloud, a key under DATA_DIR locally). */
  vault?: CredentialVault;
  /** The queue of sync steps. */
  syncQueue?: SyncQueue;
  /** Where business metrics go (embedded metrics in Lambda); without it they are not counted. */
  metrics?: BusinessMetrics;
}

/** One send to a connection may take this long before the publisher stops waiting for it. */
export const EVENT_SEND_TIMEOUT_MS = 3000;

/** What a function that was not given a store answers when a use case reaches for it anyway. */
const unavailable = (what: string) => (): never => {
  throw new Error(`this function has no ${what}`);
};
const noFiles: FileStore = {
  put: unavailable('bucket'),
  putStream: unavailable('bucket'),
  get: unavailable('bucket'),
  deletePrefix: unavailable('bucket'),
  downloadUrl: unavailable('bucket'),
  uploadUrl: unavailable('bucket'),
  inspect: unavailable('bucket'),
  move: unavailable('bucket'),
  bucketKey: unavailable('bucket'),
};
const noVault: CredentialVault = { seal: unavailable('source credentials key'), open: unavailable('source credentials key') };
const noSyncQueue: SyncQueue = { enqueue: unavailable('sync queue') };
/** A store of which every method answers `unavailable(what)`. */
const unavailableStore = <T extends object>(what: string): T =>
  new Proxy({} as T, { get: (_target, key) => (key === 'then' ? undefined : unavailable(what)) });
const noSourceStores: SourceStores = {
  forWorkspace: () => ({ sources: unavailableStore('source repository'), syncState: unavailableStore('sync state store') }),
  schedule: unavailableStore('source schedule'),
};
const noRemoteFolders: RemoteFolders = { open: unavailable('WebDAV client') };
const noOcrQueues: OcrJobQueues = { forWorkspace: () => ({ enqueue: unavailable('OCR queue') }) };
const noSearchIndexView: SearchIndex = { upsert: unavailable('search index'), remove: unavailable('search index'), search: unavailable('search index') };

/** The sender of a function that has no WebSocket endpoint: it has no business pushing to connections. */
const noConnectionSender: ConnectionSender = {
  send: () => Promise.reject(new Error('this function has no WebSocket endpoint')),
  close: () => Promise.reject(new Error('this function has no WebSocket endpoint')),
};

/** Wires the adapters both runtimes share; the composition roots only differ in where the parts come from. */
export function buildAppContainer(parts: ContainerParts): AppContainer {
  const clock = parts.clock ?? systemClock;
  const stores = {
    users: new DynamoUserRepository(parts.db, parts.tableName),
    settings: new DynamoSettingsRepository(parts.db, parts.tableName),
    revokedTokens: new DynamoRevokedTokenStore(parts.db, parts.tableName),
  };
  const { users, settings, revokedTokens } = parts.decorateHotReads?.(stores) ?? stores;
  const tokens = new JoseTokenService({
    key: parts.jwtKey,
    issuer: parts.env.JWT_ISSUER,
    audience: parts.env.JWT_AUDIENCE,
    ttlSeconds: parts.env.JWT_TTL_SECONDS,
    clock,
  });
  const stored = new DynamoConnectionRepository(parts.db, parts.tableName, clock);
  const connections = parts.decorateConnections?.(stored, clock) ?? stored;
  const connectionSender = parts.connectionSender ?? noConnectionSender;
  const oidc = oidcServices(parts, clock);
  const eventHub: EventHub = parts.connectionSender
    ? new ConnectionEventPublisher({
        connections,
        sender: parts.connectionSender,
        sendTimeoutMs: EVENT_SEND_TIMEOUT_MS,
        // The same clock as the tokens: whether a connection's token has expired is judged by it.
        clock,
        log: (message, fields) => logger.warn(message, fields),
        published: ({ event, targets, emittedAt, durationMs }) =>
          logger.debug('event published', {
            event,
            targets,
            emitted_at: Math.round(emittedAt * 1000) / 1000,
            duration_ms: Math.round(durationMs * 10) / 10,
          }),
      })
    : silentEventHub;
  const files = parts.files ?? noFiles;
  const ocrQueues = parts.ocrQueues ?? noOcrQueues;
  const usage = new DynamoUsageRepository(parts.db, parts.tableName);
  const sourceStores = parts.sourceStores?.(parts.db, parts.tableName) ?? noSourceStores;
  const meter = meterRequests(parts.decorateUsageMeter?.(usage) ?? usage, clock);
  const forWorkspace = (workspaceId: string): WorkspaceData => {
    const documents = new DynamoDocumentRepository(parts.db, parts.tableName, workspaceId, clock);
    const labels = new DynamoLabelRepository(parts.db, parts.tableName, workspaceId);
    const workspaceFiles = workspaceFileStore(files, workspaceId);
    const searchIndex = parts.search?.forWorkspace(workspaceId);
    const listingIndex = parts.listings?.(workspaceId);
    return {
      workspaceId,
      documents,
      labels,
      uploads: new DynamoPendingUploadRepository(parts.db, parts.tableName, workspaceId, clock),
      ocrJobs: new DynamoOcrJobRepository(parts.db, parts.tableName, workspaceId),
      files: workspaceFiles,
      ocrQueue: ocrQueues.forWorkspace(workspaceId),
      searchIndex: searchIndex ?? noSearchIndexView,
      ...(listingIndex ? { listingIndex } : {}),
      usageMeter: { count: (counts) => meter(workspaceId, counts) },
      ...sourceStores.forWorkspace(workspaceId),
    };
  };
  return {
    clock,
    users,
    workspaces: new DynamoWorkspaceRepository(parts.db, parts.tableName),
    usage,
    settings,
    notifications: new DynamoNotificationRepository(parts.db, parts.tableName),
    forWorkspace,
    legacyData: [new DynamoLegacyItemAdopter(parts.db, parts.tableName), ...(parts.legacyObjects ? [parts.legacyObjects] : [])],
    eventHub,
    connections,
    connectionSender,
    wsAuthTimeoutSeconds: parts.env.WS_AUTH_TIMEOUT_SECONDS,
    revokedTokens,
    passwords: new ScryptPasswordHasher(),
    tokens,
    registrationMode: parts.env.REGISTRATION_MODE,
    refreshGraceSeconds: parts.env.JWT_REFRESH_GRACE_SECONDS,
    corsOrigins: parts.env.CORS_ORIGINS,
    ...(parts.edge ? { edge: parts.edge } : {}),
    healthProbes: parts.healthProbes,
    metrics: parts.metrics ?? noBusinessMetrics,
    host: new NodeHostProbe(parts.host ?? { dataPath: tmpdir() }),
    authenticate: (token) => authenticate({ tokens, revokedTokens, users }, token),
    ...requestLimits(parts, clock, meter),
    oidc,
    vault: parts.vault ?? noVault,
    remoteFolders:
      parts.remoteFolders?.({
        allowPrivateNetworks: parts.env.SOURCES_ALLOW_PRIVATE_NETWORKS,
        requestTimeoutMs: parts.env.SOURCE_REQUEST_TIMEOUT_SECONDS * 1000,
      }) ?? noRemoteFolders,
    syncQueue: parts.syncQueue ?? noSyncQueue,
    sourceSchedule: sourceStores.schedule,
    changeLedger: new DynamoChangeLedger(parts.db, parts.tableName),
  };
}

/** Reads the OIDC configuration at init (a partial one fails here); nothing talks to the provider yet. */
function oidcServices(parts: ContainerParts, clock: Clock): OidcServices | null {
  const settings = oidcSettings(parts.env);
  if (!settings) return null;
  if (!parts.oidcClient) throw new Error('Invalid configuration: OIDC_ISSUER: is set, but this function serves no single sign-on');
  return {
    client: parts.oidcClient({
      issuer: settings.issuer,
      clientId: settings.clientId,
      clientSecret: parts.oidcClientSecret ?? (async () => settings.clientSecret),
      redirectUri: settings.redirectUri,
      scopes: settings.scopes,
    }),
    pendingLogins: new DynamoOidcLoginStore(parts.db, parts.tableName, clock),
    policy: { workspaceId: settings.workspaceId, defaultRole: settings.defaultRole, roleClaim: settings.roleClaim, roleMap: settings.roleMap },
    frontendUrl: settings.frontendUrl,
  };
}

/** What the document endpoints need beyond the app container: thumbnails, hashing, the OCR languages. */
export interface DocumentServices {
  thumbnails: ThumbnailRenderer;
  sha256(bytes: Uint8Array): string;
  /** The OCR languages the engine reads, to refuse others at upload. */
  ocrLanguages: OcrEngine['languages'];
}

/** What the OCR queue endpoints need beyond the app container. */
export interface OcrServices {
  ocrLanguages: OcrEngine['languages'];
  /** OCR jobs that run side by side, for the queue's completion estimate. */
  ocrWorkers: number;
}
