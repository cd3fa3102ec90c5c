import type { RegistrationMode } from '../manifest';
import type { Principal } from '../domain/principal';
import type { RevokedTokenStore, TokenService } from '../domain/auth/ports';
import type { ApiTokenRepository } from '../domain/tokens/ports';
import type { Clock } from '../domain/clock';
import type { DocumentListingIndex, DocumentRepository, PendingUploadRepository } from '../domain/documents/ports';
import type { FileStore } from '../domain/files/ports';
import type { EventHub } from '../domain/events/ports';
import type { ConnectionRepository, ConnectionSender } from '../domain/connections/ports';
import type { NotificationRepository } from '../domain/notifications/ports';
import type { OcrJobQueue, OcrJobRepository, OcrEngine } from '../domain/ocr/ports';
import type { SearchIndex } from '../domain/search/ports';
import type { ChangeLedger } from '../domain/changes/ports';
import type { ThumbnailRenderer } from '../domain/documents/thumbnails';
import type { HealthProbe } from '../domain/health/ports';
import type { LabelRepository } from '../domain/labels/ports';
import type { SettingsRepository } from '../domain/settings/ports';
import type { OidcClient, PendingLoginStore, SsoUserPolicy } from '../domain/sso/ports';
import type { PasswordHasher, UserRepository } from '../domain/users/ports';
import type { LegacyDataAdopter, WorkspaceRepository, WorkspaceStatusReader } from '../domain/workspaces/ports';
import type { PlanCatalog } from '../domain/quotas/plans';
import type { QuotaCounts } from '../domain/quotas/ports';
import type { CorsOrigins } from '../http/cors';
import type { EdgeOrigin } from '../http/edge';
import type { HostProbe } from '../domain/system/ports';
import type { BusinessMetrics } from '../domain/metrics/ports';
import type { RequestOrigin } from '../domain/limits/limit-request';
import type { LoginAttemptGuard } from '../domain/limits/ports';
import type { RateDecision } from '../domain/limits/rate-policy';
import type { UsageRepository, WorkspaceUsageMeter } from '../domain/usage/ports';
import type { CredentialVault, SourceRepository, SourceSchedule, SyncQueue, SyncStateStore } from '../domain/sources/ports';
import type { RemoteFolders } from '../domain/sources/remote-folder';
import type { RegexEngine, RuleDocuments, RuleJobQueue, RuleRepository } from '../domain/rules/ports';
import type { ErasureQueue, ErasureRepository } from '../domain/erasure/ports';
import type { AuditLog, AuthenticationEvents } from '../domain/audit/ports';

/**
 * The catalogue of ports, by name: each handler's `Deps` picks its own from it, and the whole container of the
 * local runtime and the tests (`buildAppContainer`) holds them all. Handlers receive them; they never build adapters.
 */
export interface AppContainer {
  clock: Clock;
  users: UserRepository;
  workspaces: WorkspaceRepository;
  /**
   * Whether a workspace serves (`active`) or is suspended or being deleted: read on every authenticated request
   * and by the workers before each job, remembered for a few seconds (WORKSPACE_STATUS_TTL_MS).
   */
  workspaceStatus: WorkspaceStatusReader;
  /** The plans (PLANS, DEFAULT_PLAN) and so each workspace's quotas. */
  plans: PlanCatalog;
  /** Each workspace's exact counts of members, sources and API tokens, bounded by its plan. */
  quotaCounts: QuotaCounts;
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
  /** Real-time events to the WebSocket clients, per workspace */
  eventHub: EventHub;
  /** The WebSocket connections and their state. */
  connections: ConnectionRepository;
  /** Pushes to and closes WebSocket connections. */
  connectionSender: ConnectionSender;
  /** A WebSocket connection that has not authenticated after this long is closed. */
  wsAuthTimeoutSeconds: number;
  revokedTokens: RevokedTokenStore;
  /** Personal API tokens, found by their hash. */
  apiTokens: ApiTokenRepository;
  /** API_TOKEN_MAX_DAYS: the longest an API token may live. */
  apiTokenMaxDays: number;
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
  /** Resolves a bearer token (a session's JWT or a personal API token, `dst_...`) to its caller. */
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
  /** Seals and opens source passwords. */
  vault: CredentialVault;
  /**
   * Reads sources' remote folders, refusing private addresses unless SOURCES_ALLOW_PRIVATE_NETWORKS.
   */
  remoteFolders: RemoteFolders;
  /** Hands sync steps to the sync workers. */
  syncQueue: SyncQueue;
  /** Every workspace's due sources and stalled syncs, for the schedule. */
  sourceSchedule: SourceSchedule;
  /** Counts documents ingested, pages OCRed, OCR failures and throttles; never fails the work. */
  metrics: BusinessMetrics;
  /** Which table changes the stream consumers have acted on (their events are pushed once). */
  changeLedger: ChangeLedger;
  /** Runs the labelling rules' regular expressions in linear time. */
  regex: RegexEngine;
  /** Hands steps of rule runs to the rule-jobs workers. */
  ruleJobs: RuleJobQueue;
  /** Where a failure to apply rules to a new or newly read document is logged. */
  ruleLog: (message: string, fields: Record<string, unknown>) => void;
  /** The deletion records of workspaces (erasures), kept after their erasure. */
  erasures: ErasureRepository;
  /** Hands workspace erasures to the eraser. */
  erasureQueue: ErasureQueue;
  /** The audit log. */
  audit: AuditLog;
  /** Where logins are recorded: the audit log. */
  authEvents: AuthenticationEvents;
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
  /** The workspace's view of the search index. */
  searchIndex: SearchIndex;
  /** Serves filtered and sorted listings where the runtime has one (the local search index). */
  listingIndex?: DocumentListingIndex;
  /** Counts the workspace's requests of the month (searches); never fails. */
  usageMeter: WorkspaceUsageMeter;
  /** The workspace's sources and their syncs. */
  sources: SourceRepository;
  /** What the workspace's syncs remember of the remote trees, and their work lists. */
  syncState: SyncStateStore;
  /** The workspace's labelling rules. */
  rules: RuleRepository;
  /** The workspace's documents as a run of a rule reads them. */
  ruleDocuments: RuleDocuments;
}

import { inWorkspace as scopedTo, type InWorkspace as ScopedTo } from './kit/workspace-scope';

/** The container as a use case acting for a caller gets it: every store scoped to the caller's workspace. */
export type InWorkspace<C extends AppContainer> = ScopedTo<C>;

/** Scopes the container to the caller's workspace (the principal's, from the token; never one a request names). */
export const inWorkspace = <C extends AppContainer>(c: C, caller: { workspaceId: string }): InWorkspace<C> => scopedTo(c, caller);

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
