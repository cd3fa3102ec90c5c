import { forbidden } from '../errors';
import type { Page, PageRequest } from '../pagination';
import type { Principal } from '../principal';
import type { AuditEntry, AuditQuery } from './audit';
import type { AuditLog } from './ports';

export interface ListAuditDeps {
  audit: Pick<AuditLog, 'list'>;
}

/**
 * The audit log of the caller's workspace (its admins), or of any workspace the operator names. Naming a
 * workspace is the operator's alone: anyone else is refused, even naming their own.
 */
export async function listAudit(
  deps: ListAuditDeps,
  caller: Principal,
  query: AuditQuery & { workspaceId?: string | undefined },
  page: PageRequest,
): Promise<Page<AuditEntry>> {
  if (query.workspaceId !== undefined && !caller.operator) {
    throw forbidden("Only the operator may read another workspace's audit log", { required_role: 'operator', role: caller.role });
  }
  const { workspaceId, ...filters } = query;
  return deps.audit.list(workspaceId ?? caller.workspaceId, filters, page);
}
