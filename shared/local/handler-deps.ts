import type { AuditDeps } from '../../functions/audit/handler';
import type { AuthDeps } from '../../functions/auth/handler';
import type { DocumentsDeps } from '../../functions/documents/handler';
import type { IngestDeps } from '../../functions/ingest/handler';
import type { LabelsDeps } from '../../functions/labels/handler';
import type { NotificationsDeps } from '../../functions/notifications/handler';
import type { OcrDeps } from '../../functions/ocr/handler';
import type { OcrWorkerHandlerDeps } from '../../functions/ocr-worker/handler';
import type { PortabilityDeps } from '../../functions/portability/handler';
import type { PortabilityWorkerDeps } from '../../functions/portability-worker/handler';
import type { RealtimeDeps } from '../../functions/realtime/handler';
import type { RuleJobsDeps } from '../../functions/rule-jobs/handler';
import type { SearchHandlerDeps } from '../../functions/search/handler';
import type { SourceSchedulerDeps } from '../../functions/source-scheduler/handler';
import type { SourceSyncDeps } from '../../functions/source-sync/handler';
import type { SourcesDeps } from '../../functions/sources/handler';
import type { UsersDeps } from '../../functions/users/handler';
import type { WebhooksDeps } from '../../functions/webhooks/handler';
import type { WorkspacesDeps } from '../../functions/workspaces/handler';
import { tableProbe } from '../adapters/aws/dynamodb/table-probe';
import { DynamoRuleDocuments } from '../adapters/aws/dynamodb/rule-documents';
import { bucketProbe } from '../adapters/aws/s3/bucket-probe';
import { S3LegacyObjectAdopter } from '../adapters/aws/s3/legacy-object-adoption';
import { S3WorkspaceEraser } from '../adapters/aws/s3/workspace-eraser';
import { queueProbe } from '../adapters/aws/sqs/queue-probe';
import { sha256 } from '../adapters/crypto/sha256';
import { lazyOpenIdClient } from '../adapters/oidc/lazy-openid-client';
import { eventsDepsOf } from '../../functions/events/deps';
import { indexerDepsOf } from '../../functions/indexer/deps';
import { deliverDepsOf } from '../../functions/webhook-delivery/deps';
import type { IndexSources } from '../container/kit/workspace-stores';
import { eraserDepsOf } from '../container/kit/eraser';
import { dynamoLegacyItems } from '../container/kit/legacy-data';
import { oidcServices } from '../container/kit/oidc';
import { hostProbe } from '../container/kit/serving';
import { ruleLog, workspaceUsageMeter } from '../container/kit/workspace-stores';
import type { ResumeDeliveriesDeps } from '../domain/webhooks/resume-deliveries';
import type { DispatchDeps } from '../domain/webhooks/dispatch-webhook-events';
import { workspaceFileStore } from '../domain/documents/bucket-layout';
import type { HealthProbe } from '../domain/health/ports';
import type { OcrSweeperDeps } from '../domain/ocr/requeue-stuck-jobs';
import type { EnsureAdminDeps } from '../domain/users/ensure-admin';
import type { WebhookSender } from '../domain/webhooks/ports';
import { LOCAL_OCR_STALE_AFTER_SECONDS, LOCAL_OCR_WORKERS, type LocalParts } from './composition';

/**
 * Each handler's deps in the local runtime, as its Lambda entry composes them (functions/<group>/index.ts), from
 * the parts built once: one process serves every route and runs every worker, so they all share the clients,
 * the gate and the stores that keep state in memory.
 */
export function localHandlerDeps(p: LocalParts) {
  const { gate, clock, env, stores, table, resources } = p;
  const files = (workspaceId: string) => workspaceFileStore(p.bucket, workspaceId);
  const ruleDocuments = (workspaceId: string) => new DynamoRuleDocuments(table.db, table.name, workspaceId, files(workspaceId));
  const rules = { regex: p.regex, ruleLog, metrics: p.metrics };
  const ocrEngineProbe: HealthProbe = {
    name: 'ocr',
    check: async () => {
      if (!(await p.engine.languages()).length) throw new Error('no OCR language installed');
    },
  };
  const indexSources: IndexSources = {
    forWorkspace: (workspaceId) => ({ ...stores('documents', 'labels')(workspaceId), files: files(workspaceId), searchIndex: p.searchIndex.forWorkspace(workspaceId) }),
  };
  const documentStores = stores('workspaceId', 'documents', 'uploads', 'labels', 'rules');
  const ocrStores = stores('workspaceId', 'ocrJobs');

  const auth: AuthDeps = {
    ...gate,
    passwords: p.passwords,
    connections: p.connections,
    quotaCounts: p.quotaCounts,
    registrationMode: env.REGISTRATION_MODE,
    refreshGraceSeconds: env.JWT_REFRESH_GRACE_SECONDS,
    authEvents: p.authEvents,
    oidc: oidcServices({ table, env, clock, client: lazyOpenIdClient }),
  };
  const users: UsersDeps = { ...gate, passwords: p.passwords, connections: p.connections, quotaCounts: p.quotaCounts, apiTokenMaxDays: env.API_TOKEN_MAX_DAYS };
  const documents: DocumentsDeps = {
    ...gate,
    ...rules,
    thumbnails: p.imaging.thumbnails,
    sha256,
    ocrLanguages: () => p.engine.languages(),
    forWorkspace: (workspaceId) => ({
      ...documentStores(workspaceId),
      files: files(workspaceId),
      ocrQueue: p.ocrQueues.forWorkspace(workspaceId),
      listingIndex: p.searchIndex.forWorkspace(workspaceId),
    }),
  };
  const labels: LabelsDeps = {
    ...gate,
    regex: p.regex,
    ruleJobs: p.ruleJobs,
    forWorkspace: (workspaceId) => ({ ...stores('workspaceId', 'labels', 'rules')(workspaceId), ruleDocuments: ruleDocuments(workspaceId) }),
  };
  const search: SearchHandlerDeps = {
    ...gate,
    forWorkspace: (workspaceId) => ({ workspaceId, searchIndex: p.searchIndex.forWorkspace(workspaceId), usageMeter: workspaceUsageMeter(gate.meter, workspaceId) }),
  };
  const ocr: OcrDeps = {
    ...gate,
    connections: p.connections,
    host: hostProbe(p.dataDir ? { dataPath: p.dataDir } : undefined),
    ocrLanguages: () => p.engine.languages(),
    ocrWorkers: LOCAL_OCR_WORKERS,
    forWorkspace: (workspaceId) => ({ ...ocrStores(workspaceId), ocrQueue: p.ocrQueues.forWorkspace(workspaceId) }),
  };
  const sources: SourcesDeps = {
    ...gate,
    quotaCounts: p.quotaCounts,
    vault: p.vault,
    syncQueue: p.syncQueue,
    remoteFolders: p.remoteFolders,
    forWorkspace: stores('workspaceId', 'sources', 'syncState'),
  };
  const notifications: NotificationsDeps = { ...gate, notifications: p.notifications };
  const webhooks: WebhooksDeps = { ...gate, vault: p.vault, webhookStores: p.webhookStores, deliveryQueue: p.deliveryQueue };
  const portability: PortabilityDeps = { ...gate, portability: p.portability, forWorkspace: stores('documents', 'labels', 'sources', 'rules') };
  const audit: AuditDeps = { ...gate, audit: p.audit };
  const workspaces: WorkspacesDeps = {
    ...gate,
    connections: p.connections,
    erasures: p.erasures,
    erasureQueue: p.erasureQueue,
    forWorkspace: stores('sources'),
  };
  const health = {
    corsOrigins: gate.corsOrigins,
    healthProbes: [
      { name: 'search', check: () => p.searchIndex.ping() },
      tableProbe(table.db, table.name),
      bucketProbe(p.s3, resources.bucketName),
      queueProbe(p.sqs, resources.ocrQueueUrl),
      ocrEngineProbe,
    ],
  };
  const realtime: RealtimeDeps = { authenticate: gate.authenticate, clock, wsAuthTimeoutSeconds: env.WS_AUTH_TIMEOUT_SECONDS, connections: p.connections, connectionSender: p.connectionSender };

  const ingest: IngestDeps = {
    clock,
    ...rules,
    forWorkspace: (workspaceId) => ({ ...documentStores(workspaceId), files: files(workspaceId), ocrQueue: p.ocrQueues.forWorkspace(workspaceId) }),
  };
  const ocrSweeper: Omit<OcrSweeperDeps, 'queuedForSeconds' | 'silentForSeconds'> = {
    workspaces: gate.workspaces,
    clock,
    forWorkspace: (workspaceId) => ({ ocrJobs: stores('ocrJobs')(workspaceId).ocrJobs, ocrQueue: p.ocrQueues.forWorkspace(workspaceId) }),
  };
  const ocrWorker: OcrWorkerHandlerDeps = {
    ...rules,
    clock,
    settings: gate.settings,
    notifications: p.notifications,
    quotaCounts: p.quotaCounts,
    usage: gate.usage,
    plans: gate.plans,
    workspaceStatus: gate.workspaceStatus,
    engine: p.engine,
    textLayer: p.imaging.textLayer,
    searchablePdf: p.imaging.searchablePdf,
    staleAfterSeconds: LOCAL_OCR_STALE_AFTER_SECONDS,
    forWorkspace: (workspaceId) => ({
      ...stores('workspaceId', 'documents', 'ocrJobs', 'labels', 'rules')(workspaceId),
      files: files(workspaceId),
      ocrQueue: p.ocrQueues.forWorkspace(workspaceId),
    }),
  };
  const sourceSync: SourceSyncDeps = {
    ...rules,
    clock,
    settings: gate.settings,
    notifications: p.notifications,
    workspaceStatus: gate.workspaceStatus,
    vault: p.vault,
    syncQueue: p.syncQueue,
    remoteFolders: p.remoteFolders,
    forWorkspace: (workspaceId) => ({
      ...stores('workspaceId', 'sources', 'syncState', 'documents', 'ocrJobs', 'labels', 'rules')(workspaceId),
      files: files(workspaceId),
      ocrQueue: p.ocrQueues.forWorkspace(workspaceId),
    }),
  };
  const sourceScheduler: SourceSchedulerDeps = {
    clock,
    sourceSchedule: p.sourceSchedule,
    syncQueue: p.syncQueue,
    workspaceStatus: gate.workspaceStatus,
    forWorkspace: stores('workspaceId', 'sources', 'syncState'),
  };
  const ruleJobs: RuleJobsDeps = {
    clock,
    regex: p.regex,
    ruleJobs: p.ruleJobs,
    forWorkspace: (workspaceId) => ({ ...stores('workspaceId', 'rules', 'labels')(workspaceId), ruleDocuments: ruleDocuments(workspaceId) }),
  };
  const portabilityWorker: PortabilityWorkerDeps = {
    clock,
    workspaces: gate.workspaces,
    workspaceStatus: gate.workspaceStatus,
    users: gate.users,
    usage: gate.usage,
    audit: p.audit,
    vault: p.vault,
    webhookStores: p.webhookStores,
    portability: p.portability,
    forWorkspace: (workspaceId) => ({ ...stores('workspaceId', 'documents', 'labels', 'sources', 'rules')(workspaceId), files: files(workspaceId) }),
  };
  const webhookStores = { webhookStores: p.webhookStores, deliveryQueue: p.deliveryQueue };

  return {
    http: { auth, users, settings: gate, documents, labels, search, ocr, sources, notifications, webhooks, portability, audit, workspaces, health, fallback: gate },
    realtime,
    ingest,
    ocrSweeper,
    ocrWorker,
    sourceSync,
    sourceScheduler,
    ruleJobs,
    portabilityWorker,
    /** The delivery worker's deps, with the sender of its attempts. */
    webhookDelivery: (sender: WebhookSender) => deliverDepsOf({ ...gate, notifications: p.notifications, vault: p.vault, ...webhookStores }, sender),
    resumeDeliveries: { workspaces: gate.workspaces, clock, inWorkspace: p.webhookStores, deliveryQueue: p.deliveryQueue } satisfies ResumeDeliveriesDeps,
    resumeRuleRuns: { workspaces: gate.workspaces, ruleJobs: p.ruleJobs, forWorkspace: stores('rules') },
    resumeErasures: { erasures: p.erasures, erasureQueue: p.erasureQueue },
    eraser: eraserDepsOf(
      { clock, connections: p.connections, connectionSender: p.connectionSender },
      {
        db: table.db,
        tableName: table.name,
        // The S3 emulator implements no versioning.
        objects: new S3WorkspaceEraser(p.s3, resources.bucketName, false),
        index: { erase: async (workspaceId) => p.searchIndex.eraseWorkspace(workspaceId) },
      },
    ),
    /** The stream consumers, and what the reconciliation and a rebuild of the index read. */
    indexer: indexerDepsOf({ ...indexSources, erasures: p.erasures }),
    indexSources: { ...indexSources, workspaces: gate.workspaces },
    events: eventsDepsOf({
      eventHub: p.eventHub,
      connectionSender: p.connectionSender,
      users: gate.users,
      changeLedger: p.changeLedger,
      forWorkspace: stores('ocrJobs'),
    }),
    dispatch: { inWorkspace: p.webhookStores, deliveryQueue: p.deliveryQueue } satisfies DispatchDeps,
    admin: {
      users: gate.users,
      workspaces: gate.workspaces,
      passwords: p.passwords,
      clock,
      legacyData: [...dynamoLegacyItems(table.db, table.name), new S3LegacyObjectAdopter(p.s3, resources.bucketName)],
    } satisfies EnsureAdminDeps,
  };
}
