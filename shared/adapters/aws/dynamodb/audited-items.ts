import { BOOTSTRAP_WORKSPACE_ID } from '../../../domain/workspaces/workspace';

/**
 * The kinds of table items whose changes the audit log records (keys.ts, workspace-keys.ts), with where each
 * names its workspace and its id. The same list decides which deletes the DynamoDB client stamps with their
 * actor first (a delete's stream record carries only the item as it was).
 */
export type AuditedKind =
  | 'document'
  | 'label'
  | 'label_assignment'
  | 'ocr_job'
  | 'rule'
  | 'source'
  | 'sync'
  | 'webhook'
  | 'token'
  | 'user'
  | 'settings'
  | 'workspace'
  | 'erasure'
  | 'export'
  | 'import';

type Item = Record<string, unknown>;

/** An audited item: its kind, its workspace (null: the actor's, for a user's settings) and its id. */
export interface AuditedItem {
  kind: AuditedKind;
  workspaceId: string | null;
  id: string;
  /** A second id the change is about (a label assignment's label). */
  relatedId?: string;
}

/** A document's or label's partition; a sharded label's memberships are in its shards (`LABEL#<id>#<n>`). */
const WS_ENTITY = /^WS#([^#]+)#(DOC|LABEL)#([^#]+)(#\d+)?$/;
const WS_PARTITION = /^WS#([^#]+)#(RULES|SOURCES|WEBHOOKS)$/;
const SYNC_JOBS = /^WS#([^#]+)#SOURCE#([^#]+)#JOBS$/;
const WS_ANY = /^WS#([^#]+)#/;

/** Which audited item a key names (with its image, for the items whose key holds no workspace), or null. */
export function auditedItem(pk: string, sk: string, image: Item | null = null): AuditedItem | null {
  const entity = WS_ENTITY.exec(pk);
  if (entity) {
    const [, workspaceId, kind, id, shard] = entity as unknown as [string, string, string, string, string | undefined];
    if (shard !== undefined) return kind === 'LABEL' && sk.startsWith('DOC#') ? { kind: 'label_assignment', workspaceId, id: sk.slice(4), relatedId: id } : null;
    if (kind === 'DOC' && sk === 'META') return { kind: 'document', workspaceId, id };
    if (kind === 'DOC' && sk === 'OCRJOB') return { kind: 'ocr_job', workspaceId, id };
    if (kind === 'LABEL' && sk === 'META') return { kind: 'label', workspaceId, id };
    if (kind === 'LABEL' && sk.startsWith('DOC#')) return { kind: 'label_assignment', workspaceId, id: sk.slice(4), relatedId: id };
    return null;
  }
  const partition = WS_PARTITION.exec(pk);
  if (partition) {
    const [, workspaceId, name] = partition as unknown as [string, string, string];
    const prefix = { RULES: 'RULE#', SOURCES: 'SOURCE#', WEBHOOKS: 'WEBHOOK#' }[name as 'RULES' | 'SOURCES' | 'WEBHOOKS'];
    const kind = ({ RULES: 'rule', SOURCES: 'source', WEBHOOKS: 'webhook' } as const)[name as 'RULES' | 'SOURCES' | 'WEBHOOKS'];
    return sk.startsWith(prefix) ? { kind, workspaceId, id: sk.slice(prefix.length) } : null;
  }
  const syncJobs = SYNC_JOBS.exec(pk);
  if (syncJobs) return { kind: 'sync', workspaceId: syncJobs[1]!, id: syncJobs[2]!, relatedId: sk };
  const workspaceData = WS_ANY.exec(pk);
  if (workspaceData && (sk.startsWith('EXPORT#') || sk.startsWith('IMPORT#'))) {
    return { kind: sk.startsWith('EXPORT#') ? 'export' : 'import', workspaceId: workspaceData[1]!, id: sk.slice(7) };
  }
  if (pk.startsWith('APITOKEN#') && sk === 'TOKEN') {
    return { kind: 'token', workspaceId: typeof image?.['workspace_id'] === 'string' ? image['workspace_id'] : null, id: String(image?.['id'] ?? '') };
  }
  if (pk.startsWith('USER#') && (sk === 'PROFILE' || sk === 'SETTINGS')) {
    const id = pk.slice('USER#'.length);
    if (sk === 'SETTINGS') return { kind: 'settings', workspaceId: null, id };
    return { kind: 'user', workspaceId: typeof image?.['workspace_id'] === 'string' ? image['workspace_id'] : BOOTSTRAP_WORKSPACE_ID, id };
  }
  if (pk.startsWith('WORKSPACE#') && sk === 'META') return { kind: 'workspace', workspaceId: pk.slice('WORKSPACE#'.length), id: pk.slice('WORKSPACE#'.length) };
  if (pk.startsWith('ERASURE#') && sk === 'RECORD') return { kind: 'erasure', workspaceId: pk.slice('ERASURE#'.length), id: pk.slice('ERASURE#'.length) };
  return null;
}
