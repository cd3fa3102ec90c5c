import { tarGzipCodec } from '../../adapters/archive/tar-gzip-codec';
import { DynamoImportedTexts, DynamoPortabilityJobRepository, DynamoUnfinishedPortabilityJobs } from '../../adapters/aws/dynamodb/portability-job-repository';
import { S3ArchiveStore } from '../../adapters/aws/s3/archive-store';
import type { EmptinessDeps } from '../../domain/portability/workspace-emptiness';
import type { PortabilityDeps } from '../../domain/portability/manage-portability';
import type { ExportDeps } from '../../domain/portability/run-export';
import { auditTrailOf } from '../../domain/portability/audit-trail';
import type { ImportDeps } from '../../domain/portability/run-import';
import type {
  ArchiveCodec,
  ArchiveStore,
  ImportedTexts,
  PortabilityJobRepository,
  PortabilityQueue,
  UnfinishedPortabilityJobs,
} from '../../domain/portability/ports';
import { logger } from '../../observability/logger';
import type { AuditLog } from '../../domain/audit/ports';
import type { Clock } from '../../domain/clock';
import type { DocumentRepository } from '../../domain/documents/ports';
import type { FileStore } from '../../domain/files/ports';
import type { LabelRepository } from '../../domain/labels/ports';
import type { RuleRepository } from '../../domain/rules/ports';
import type { CredentialVault, SourceRepository } from '../../domain/sources/ports';
import type { UsageRepository } from '../../domain/usage/ports';
import type { UserRepository } from '../../domain/users/ports';
import type { WorkspaceRepository } from '../../domain/workspaces/ports';
import { inWorkspace, type WorkspaceScoped } from './workspace-scope';
import type { Table } from './table';
import type { WebhookServices } from './webhooks';

/** What the export and import routes and their worker take. */
export interface PortabilityServices {
  portability: {
    jobs(workspaceId: string): PortabilityJobRepository;
    archives(workspaceId: string): ArchiveStore;
    texts(workspaceId: string): ImportedTexts;
    codec: ArchiveCodec;
    queue: PortabilityQueue;
    unfinished: UnfinishedPortabilityJobs;
  };
}

/** The portability stores over the application table and the bucket. */
export function dynamoPortabilityServices(
  db: Table['db'],
  tableName: string,
  s3: ConstructorParameters<typeof S3ArchiveStore>[0],
  bucket: string,
  queue: PortabilityQueue,
): PortabilityServices['portability'] {
  return {
    jobs: (workspaceId) => new DynamoPortabilityJobRepository(db, tableName, workspaceId),
    archives: (workspaceId) => new S3ArchiveStore(s3, bucket, workspaceId),
    texts: (workspaceId) => new DynamoImportedTexts(db, tableName, workspaceId),
    codec: tarGzipCodec,
    queue,
    unfinished: new DynamoUnfinishedPortabilityJobs(db, tableName),
  };
}

/** What the routes take, for one workspace. */
export function portabilityDepsOf(
  c: { clock: Clock } & WorkspaceScoped<{ documents: DocumentRepository; labels: LabelRepository; sources: SourceRepository; rules: RuleRepository }> & { portability: Pick<PortabilityServices['portability'], 'jobs' | 'archives' | 'queue'> },
  workspaceId: string,
): PortabilityDeps & EmptinessDeps {
  const data = c.forWorkspace(workspaceId);
  return {
    workspaceId,
    clock: c.clock,
    portabilityJobs: c.portability.jobs(workspaceId),
    portabilityQueue: c.portability.queue,
    archives: c.portability.archives(workspaceId),
    documents: data.documents,
    labels: data.labels,
    sources: data.sources,
    rules: data.rules,
  };
}

/** What an archive holds of one workspace. */
interface PortableStores {
  workspaceId: string;
  documents: DocumentRepository;
  files: FileStore;
  labels: LabelRepository;
  sources: SourceRepository;
  rules: RuleRepository;
}

/** What an export reads: the workspace's stores, its webhooks, members and usage, and its audit log. */
export type ExportSources = { clock: Clock; workspaces: WorkspaceRepository; users: UserRepository; usage: UsageRepository; audit: AuditLog } &
  WorkspaceScoped<PortableStores> &
  PortabilityServices & Pick<WebhookServices, 'webhookStores'>;

/** What an import writes: the workspace's stores, the vault that seals imported sources' passwords. */
export type ImportTargets = { clock: Clock; vault: CredentialVault } &
  WorkspaceScoped<PortableStores> &
  PortabilityServices;

export function exportDepsOf(c: ExportSources, workspaceId: string): ExportDeps {
  const data = inWorkspace(c, { workspaceId });
  return {
    ...data,
    portabilityJobs: c.portability.jobs(workspaceId),
    archives: c.portability.archives(workspaceId),
    codec: c.portability.codec,
    webhooks: c.webhookStores(workspaceId).webhooks,
    workspace: () => c.workspaces.findById(workspaceId),
    members: () => c.users.list(workspaceId),
    usage: c.usage,
    // The archive's `audit` collection: the workspace's audit log, a page at a time.
    audit: auditTrailOf((id, query, page) => c.audit.list(id, query, page), workspaceId),
    log: (message, fields) => logger.error(message, fields),
  };
}

/** What an import writes, for one workspace. */
export function importDepsOf(c: ImportTargets, workspaceId: string): ImportDeps {
  const data = inWorkspace(c, { workspaceId });
  return {
    ...data,
    portabilityJobs: c.portability.jobs(workspaceId),
    archives: c.portability.archives(workspaceId),
    codec: c.portability.codec,
    texts: c.portability.texts(workspaceId),
    vault: c.vault,
    log: (message, fields) => logger.error(message, fields),
  };
}
