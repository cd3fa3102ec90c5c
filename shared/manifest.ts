/**
 * The HTTP surface, as data: which Lambda (endpoint group) serves which API Gateway route key.
 *
 * It is the single source for three readers that must agree: the CDK api stack (one Lambda per group, one
 * route per key), the local gateway (matches a request to a group and route key), and each group's handler
 * (dispatches on `event.routeKey`). It imports nothing, so `lib/` may read it without pulling runtime code.
 *
 * Routes are written once, as v1 keys (`/api/...`); {@link HTTP_ROUTES} adds each one's v2 twin
 * (`/api/v2/...`), and the handlers list and dispatch on v1 keys (see {@link v1RouteKey}).
 */
const V1_ROUTES = {
  auth: [
    'POST /api/auth/register',
    'POST /api/auth/login',
    'POST /api/auth/logout',
    'POST /api/auth/refresh',
    'GET /api/auth/oidc/login',
    'GET /api/auth/oidc/callback',
  ],
  users: [
    'GET /api/users',
    'POST /api/users',
    'PUT /api/users/{id}',
    'DELETE /api/users/{id}',
    'GET /api/users/profile',
    'PUT /api/users/profile',
    'POST /api/users/change-password',
    'GET /api/tokens',
    'POST /api/tokens',
    'DELETE /api/tokens/{id}',
    'GET /api/usage',
    'GET /api/usage/workspaces',
  ],
  settings: ['GET /api/settings', 'PUT /api/settings'],
  documents: [
    'POST /api/documents/upload',
    'POST /api/documents/upload-url',
    'POST /api/documents/bulk-upload',
    'GET /api/documents',
    'GET /api/documents/{id}',
    'PUT /api/documents/{id}',
    'DELETE /api/documents/{id}',
    'GET /api/documents/{id}/download',
    'GET /api/documents/{id}/searchable-pdf',
    'GET /api/documents/{id}/thumbnail',
  ],
  labels: [
    'GET /api/labels',
    'POST /api/labels',
    'PUT /api/labels/{id}',
    'DELETE /api/labels/{id}',
    'POST /api/labels/{id}/assign',
    'GET /api/rules',
    'POST /api/rules',
    'PUT /api/rules/{id}',
    'DELETE /api/rules/{id}',
    'POST /api/rules/{id}/apply',
  ],
  ocr: [
    'POST /api/documents/{id}/retry-ocr',
    'GET /api/ocr/queue/status',
    'GET /api/ocr/queue',
    'PUT /api/ocr/queue/{id}/priority',
    'DELETE /api/ocr/queue/{id}',
    'GET /api/metrics/ocr',
    'GET /api/metrics/system',
  ],
  search: ['GET /api/search', 'POST /api/search/advanced'],
  sources: [
    'GET /api/sources',
    'POST /api/sources',
    'PUT /api/sources/{id}',
    'DELETE /api/sources/{id}',
    'POST /api/sources/{id}/sync',
    'GET /api/sources/{id}/sync-status',
  ],
  notifications: ['GET /api/notifications', 'PUT /api/notifications/{id}/read', 'PUT /api/notifications/read-all'],
  webhooks: [
    'GET /api/webhooks',
    'POST /api/webhooks',
    'GET /api/webhooks/{id}',
    'PUT /api/webhooks/{id}',
    'DELETE /api/webhooks/{id}',
    'POST /api/webhooks/{id}/rotate-secret',
    'POST /api/webhooks/{id}/test',
    'GET /api/webhooks/{id}/deliveries',
  ],
  workspaces: ['GET /api/workspace', 'PUT /api/workspace', 'DELETE /api/workspace', 'GET /api/workspaces', 'PUT /api/workspaces/{id}', 'DELETE /api/workspaces/{id}'],
  portability: [
    'POST /api/workspace/exports',
    'GET /api/workspace/exports/{id}',
    'POST /api/workspace/imports',
    'POST /api/workspace/imports/{id}/start',
    'GET /api/workspace/imports/{id}',
  ],
  audit: ['GET /api/audit'],
  health: ['GET /api/health'],
} as const;

/** The path prefix of each API version: v1 is P's current version, v2 its future one (SPEC.md, Versioning). */
export const API_VERSION_PREFIXES = { v1: '/api/', v2: '/api/v2/' } as const;

type V2Key<K extends string> = string extends K ? string : K extends `${infer Method} /api/${infer Rest}` ? `${Method} /api/v2/${Rest}` : never;

/** The v2 twin of a v1 route key: `GET /api/documents` → `GET /api/v2/documents`. */
export const v2RouteKey = <K extends string>(key: K): V2Key<K> =>
  key.replace(` ${API_VERSION_PREFIXES.v1}`, ` ${API_VERSION_PREFIXES.v2}`) as V2Key<K>;

/**
 * The v1 route a key is served by: a v2 key's v1 twin, any other key itself. v2 serves the v1 surface, so the
 * handlers list v1 keys only and the pipeline dispatches a v2 request on its twin.
 */
export const v1RouteKey = (key: string): string => key.replace(` ${API_VERSION_PREFIXES.v2}`, ` ${API_VERSION_PREFIXES.v1}`);

/** Every route key the HTTP API serves, by group: each v1 key, then its v2 twin. */
export const HTTP_ROUTES = Object.fromEntries(
  Object.entries(V1_ROUTES).map(([group, keys]) => [group, [...keys, ...keys.map((key) => v2RouteKey(key))]]),
) as unknown as { readonly [G in keyof typeof V1_ROUTES]: readonly ((typeof V1_ROUTES)[G][number] | V2Key<(typeof V1_ROUTES)[G][number]>)[] };

export type HttpGroup = keyof typeof HTTP_ROUTES;
export type RouteKey = (typeof HTTP_ROUTES)[HttpGroup][number];

/**
 * A route of one version on its way out. It keeps answering until it is removed from the manifest, which may
 * happen in any release after `sunset`; until then every answer carries `Deprecation` (the sunset as an HTTP
 * date, as SPEC.md asks), `Sunset` (the same date) and a `Link` to the successor (`rel="successor-version"`).
 */
export interface Deprecation {
  /** The day it was marked deprecated (`YYYY-MM-DD`, UTC): the policy's notice period counts from it. */
  readonly since: string;
  /** The day (`YYYY-MM-DD`, UTC, from 00:00) from which it may be gone; at least {@link MIN_DEPRECATION_DAYS} after `since`. */
  readonly sunset: string;
  /** The route that replaces it; a v1 route's default is its v2 twin. A v2 route without one gets no `Link`. */
  readonly successor?: RouteKey;
}

export type DeprecationTable = Readonly<Partial<Record<RouteKey, Deprecation>>>;

/** How long a deprecated route keeps answering, at least, after it was marked: clients get six months' notice. */
export const MIN_DEPRECATION_DAYS = 180;

/** The deprecated routes of this release (none yet: v2 is still v1's surface). */
export const DEPRECATIONS: DeprecationTable = {};

/**
 * The routes whose handlers serve callers without a token (`access: 'public'` in their route definitions), as v1
 * keys: every other route refuses a request without a valid token before it reads the body, so the local gateway
 * may refuse it before the body is received (test/unit/local/route-table.test.ts holds the two to agreement).
 */
export const PUBLIC_ROUTE_KEYS: ReadonlySet<string> = new Set<RouteKey>([
  'POST /api/auth/register',
  'POST /api/auth/login',
  'POST /api/auth/refresh',
  'GET /api/auth/oidc/login',
  'GET /api/auth/oidc/callback',
  'GET /api/health',
]);

/** Route keys answered by the `fallback` function: unknown routes (404 in the P body) and CORS preflights. */
export const FALLBACK_ROUTE_KEY = '$default';

/** WebSocket route keys, served by the `realtime` function. */
export const WS_ROUTES = ['$connect', '$disconnect', '$default'] as const;

/** Environment variable names shared by the CDK bind helpers and the AWS composition root. */
/**
 * The business metrics the functions count (embedded metrics in Lambda) and their CloudWatch namespace: the
 * adapters publish them, the stack graphs and alarms on them.
 */
export const BUSINESS_METRICS = ['DocumentsIngested', 'PagesOcred', 'OcrFailures', 'TextractThrottles'] as const;
export const BUSINESS_METRICS_NAMESPACE = 'DocService';

export const ENV = {
  tableName: 'TABLE_NAME',
  bucketName: 'BUCKET_NAME',
  ocrQueueUrl: 'OCR_QUEUE_URL',
  ocrHighQueueUrl: 'OCR_HIGH_QUEUE_URL',
  ocrWorkers: 'OCR_WORKERS',
  jwtSecretArn: 'JWT_SECRET_ARN',
  jwtIssuer: 'JWT_ISSUER',
  jwtAudience: 'JWT_AUDIENCE',
  jwtTtlSeconds: 'JWT_TTL_SECONDS',
  jwtRefreshGraceSeconds: 'JWT_REFRESH_GRACE_SECONDS',
  registrationMode: 'REGISTRATION_MODE',
  plans: 'PLANS',
  defaultPlan: 'DEFAULT_PLAN',
  apiTokenMaxDays: 'API_TOKEN_MAX_DAYS',
  corsOrigins: 'CORS_ORIGINS',
  adminUsername: 'ADMIN_USERNAME',
  adminEmail: 'ADMIN_EMAIL',
  adminPasswordSecretArn: 'ADMIN_PASSWORD_SECRET_ARN',
  websocketEndpoint: 'WEBSOCKET_ENDPOINT',
  opensearchEndpoint: 'OPENSEARCH_ENDPOINT',
  searchIndexReplicas: 'SEARCH_INDEX_REPLICAS',
  imagingWorkers: 'IMAGING_WORKERS',
  rateLimitPerMinute: 'RATE_LIMIT_PER_MINUTE',
  rateLimitBurst: 'RATE_LIMIT_BURST',
  uploadRateLimitPerMinute: 'UPLOAD_RATE_LIMIT_PER_MINUTE',
  ipRateLimitPerMinute: 'IP_RATE_LIMIT_PER_MINUTE',
  ipRateLimitBurst: 'IP_RATE_LIMIT_BURST',
  oidcIssuer: 'OIDC_ISSUER',
  oidcClientId: 'OIDC_CLIENT_ID',
  oidcClientSecretArn: 'OIDC_CLIENT_SECRET_ARN',
  oidcRedirectUri: 'OIDC_REDIRECT_URI',
  oidcScopes: 'OIDC_SCOPES',
  oidcFrontendUrl: 'OIDC_FRONTEND_URL',
  oidcDefaultRole: 'OIDC_DEFAULT_ROLE',
  oidcWorkspaceId: 'OIDC_WORKSPACE_ID',
  oidcRoleClaim: 'OIDC_ROLE_CLAIM',
  oidcRoleMap: 'OIDC_ROLE_MAP',
  sourceSyncQueueUrl: 'SOURCE_SYNC_QUEUE_URL',
  sourceCredentialsKeyArn: 'SOURCE_CREDENTIALS_KEY_ARN',
  sourcesAllowPrivateNetworks: 'SOURCES_ALLOW_PRIVATE_NETWORKS',
  webhooksAllowPrivateNetworks: 'WEBHOOKS_ALLOW_PRIVATE_NETWORKS',
  webhookDeliveryQueueUrl: 'WEBHOOK_DELIVERY_QUEUE_URL',
  ruleJobsQueueUrl: 'RULE_JOBS_QUEUE_URL',
  portabilityQueueUrl: 'PORTABILITY_QUEUE_URL',
  erasureQueueUrl: 'ERASURE_QUEUE_URL',
  auditTableName: 'AUDIT_TABLE_NAME',
  edgeOriginSecretArn: 'EDGE_ORIGIN_SECRET_ARN',
} as const;

/** Key schema of the single application table; the CDK stateful stack and local provisioning both build from it. */
export const TABLE_SCHEMA = {
  partitionKey: 'pk',
  sortKey: 'sk',
  indexes: [{ name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' }],
  ttlAttribute: 'ttl',
} as const;

/**
 * The bucket's layout: a workspace's objects live under `workspaces/<workspace id>/`, and its staged uploads
 * (presigned PUTs, what the bucket's object-created notifications and the abandoned-upload lifecycle rule watch)
 * under `uploads/<workspace id>/`. See shared/domain/documents/bucket-layout.ts.
 */
export const STAGING_PREFIX = 'uploads/';
export const WORKSPACES_PREFIX = 'workspaces/';
/**
 * Files a source sync is writing, under `sync-staging/<workspace id>/`: not watched by the ingest, removed by
 * the sync once checked, and by the bucket's lifecycle rule when a sync died mid-file.
 */
export const SYNC_STAGING_PREFIX = 'sync-staging/';

/**
 * The portability worker's timeout: Lambda's longest. One export or import runs in one invocation (see
 * docs/export-and-import.md for the size that fits).
 */
export const PORTABILITY_TIMEOUT_SECONDS = 900;

/** The rule-jobs worker's timeout: a step of 200 documents reads their texts and assigns labels well within it. */
export const RULE_JOBS_TIMEOUT_SECONDS = 120;

/**
 * The eraser's timeout: Lambda's longest. An erasure cut short by it (or by a crash) goes on from its first
 * unfinished step when the message is delivered again.
 */
export const ERASER_TIMEOUT_SECONDS = 900;

/** How often the schedule looks for sources whose next sync is due (cloud: EventBridge; local: a timer). */
export const SOURCE_SCHEDULE_MINUTES = 1;
/**
 * How long one sync worker invocation works before it saves its place and hands the rest to a new message:
 * well inside Lambda's 15 minutes, with room to finish the file at hand.
 */
export const SOURCE_SYNC_STEP_SECONDS = 600;
/** The sync worker's timeout: the step, plus the longest single file (500 MB) it may still be writing. */
export const SOURCE_SYNC_TIMEOUT_SECONDS = 900;

/**
 * Deliveries of a queue message before its queue moves it to the dead-letter queue, for every queue of the
 * service (the DLQ alarms quote it). A delivery of an OCR job is an attempt of its run: the worker ends the run
 * failed on the last one, so a job never reaches the dead-letter queue unfinished.
 */
export const MAX_RECEIVES = 5;

/**
 * How the table's stream is delivered to its two consumers (`indexer`, `events`): the cloud's event source
 * mappings and the local stream poller use the same numbers. Records per batch at most, and retries of a failing
 * batch before its records go to the consumer's failure destination: with bisection a poison record is isolated
 * in about log2(100) = 7 splits, so 10 leave room for a passing fault.
 */
export const CHANGE_CONSUMER_DELIVERY = { batchSize: 100, retryAttempts: 10 } as const;

/**
 * How often the search index is compared with the table and its drift repaired (cloud: an EventBridge schedule
 * of the `indexer` function; local: a timer, and once a minute after start).
 */
export const INDEX_RECONCILE_HOURS = 6;

/**
 * The scheduled event that asks the `indexer` function for a reconciliation (an EventBridge rule's constant
 * input): `{ "reconcile": true }`, with `"check_only": true` to count the drift without repairing it, and
 * `"workspace_ids": [...]` to check only those workspaces.
 */
export interface ReconcileEvent {
  reconcile: true;
  check_only?: boolean;
  /** Only these workspaces (a long run split over several invocations); default every workspace. */
  workspace_ids?: string[];
}

/** Whether the indexer's event is the scheduled reconciliation (anything else is a batch of the stream). */
export const isReconcileEvent = (event: unknown): event is ReconcileEvent =>
  typeof event === 'object' && event !== null && (event as { reconcile?: unknown }).reconcile === true;

/** How self-service sign-up works (REGISTRATION_MODE, CDK context `registrationMode`): a new workspace per sign-up, or none. */
export const REGISTRATION_MODES = ['workspace', 'closed'] as const;
export type RegistrationMode = (typeof REGISTRATION_MODES)[number];

/**
 * The largest multipart body the cloud takes. The HTTP API hands Lambda a multipart body base64-encoded (4/3 of
 * its size) inside a JSON event, and Lambda takes at most 6 MB: 4 MiB becomes 5.33 MiB, which leaves the event's
 * headers room. The edge (CloudFront) refuses a larger body by its Content-Length before it reaches the gateway;
 * a function refuses one that still reaches it (see the README's size limits).
 */
export const CLOUD_MULTIPART_MAX_BYTES = 4 * 1024 * 1024;

/** Where an upload too large for a multipart request goes instead. */
export const PRESIGNED_UPLOAD_ROUTE = 'POST /api/documents/upload-url';

/**
 * Headers between the CloudFront edge and the functions behind it. CloudFront sets both on every request it
 * forwards, replacing any a client sent: the origin token proves the request came through the edge, and the
 * viewer address is the client's, where the gateway sees only the edge's.
 */
export const EDGE_HEADERS = { originToken: 'x-origin-verify', viewerAddress: 'x-viewer-address' } as const;

