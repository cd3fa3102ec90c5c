import type { PortabilityServices } from '../../shared/container/kit/portability';
import type { WebhookServices } from '../../shared/container/kit/webhooks';
import { inWorkspace, type WorkspaceScoped } from '../../shared/container/kit/workspace-scope';
import type { AuditLog } from '../../shared/domain/audit/ports';
import type { Clock } from '../../shared/domain/clock';
import type { DocumentRepository } from '../../shared/domain/documents/ports';
import type { FileStore } from '../../shared/domain/files/ports';
import type { LabelRepository } from '../../shared/domain/labels/ports';
import { auditTrailOf } from '../../shared/domain/portability/audit-trail';
import type { ExportDeps } from '../../shared/domain/portability/run-export';
import type { ImportDeps } from '../../shared/domain/portability/run-import';
import type { RuleRepository } from '../../shared/domain/rules/ports';
import type { CredentialVault, SourceRepository } from '../../shared/domain/sources/ports';
import type { UsageRepository } from '../../shared/domain/usage/ports';
import type { UserRepository } from '../../shared/domain/users/ports';
import type { WorkspaceRepository } from '../../shared/domain/workspaces/ports';
import { logger } from '../../shared/observability/logger';

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

/** What an export and an import both use: the workspace's stores, its portability jobs and archives, the codec. */
const portableStoresOf = (c: { clock: Clock } & WorkspaceScoped<PortableStores> & PortabilityServices, workspaceId: string) => ({
  ...inWorkspace(c, { workspaceId }),
  portabilityJobs: c.portability.jobs(workspaceId),
  archives: c.portability.archives(workspaceId),
  codec: c.portability.codec,
});

export function exportDepsOf(c: ExportSources, workspaceId: string): ExportDeps {
  return {
    ...portableStoresOf(c, workspaceId),
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
  return {
    ...portableStoresOf(c, workspaceId),
    texts: c.portability.texts(workspaceId),
    vault: c.vault,
    log: (message, fields) => logger.error(message, fields),
  };
}
