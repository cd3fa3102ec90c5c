import type { Page, PageRequest } from '../pagination';
import type { AuditTrailReader } from './ports';

/** What the audit log answers a page of (structurally: the audit area's `AuditLog.list`). */
export type AuditPages = (workspaceId: string, query: Record<string, never>, page: PageRequest) => Promise<Page<object>>;

const AUDIT_PAGE = 100;

/**
 * The workspace's whole audit log as an export reads it, a page at a time (newest first, as the log lists it):
 * how a runtime that has the audit log plugs it into `PortabilityServices.portability.audit`.
 */
export function auditTrailOf(list: AuditPages, workspaceId: string): AuditTrailReader {
  return {
    async *records() {
      for (let page = 1; ; page += 1) {
        const answer = await list(workspaceId, {}, { page, perPage: AUDIT_PAGE });
        for (const entry of answer.data) yield entry as Record<string, unknown>;
        if (!answer.pagination.has_next) return;
      }
    },
  };
}
