import type { Clock } from '../clock';
import type { CredentialVault, SourceRepository, SyncQueue, SyncStateStore } from './ports';
import { checkSourceAccess } from './check-source-access';
import type { RemoteFolders } from './remote-folder';
import { toSourceView, type SourceRecord, type SourceType, type SourceView } from './source';
import { startSync } from './start-sync';
import { createCounted, type CountedQuotaDeps } from '../quotas/counted-quota';

export interface SourceDeps extends CountedQuotaDeps {
  workspaceId: string;
  sources: SourceRepository;
  syncState: SyncStateStore;
  vault: CredentialVault;
  remoteFolders: RemoteFolders;
  syncQueue: SyncQueue;
  clock: Clock;
}

export interface NewSource {
  name: string;
  type: SourceType;
  url: string;
  username: string;
  password: string;
  syncInterval: number;
  recursive: boolean;
  filePatterns: string[];
  enabled: boolean;
  createdBy: string;
}

/**
 * Adds a source to the workspace once its folder can be read with its credentials (400 naming the field
 * otherwise), with its password sealed, and starts its first sync at once; the creator is told when it ends.
 * A workspace at its plan's `sources` limit is refused (403 `quota_exceeded`).
 */
export async function createSource(deps: SourceDeps, input: NewSource): Promise<SourceView> {
  const url = input.url.endsWith('/') ? input.url : `${input.url}/`;
  await checkSourceAccess(deps.remoteFolders, { url, username: input.username, password: input.password });
  const id = crypto.randomUUID();
  const now = deps.clock.now().toISOString();
  const source: SourceRecord = {
    id,
    name: input.name,
    type: input.type,
    url,
    username: input.username,
    password_sealed: await deps.vault.seal(input.password, { workspaceId: deps.workspaceId, sourceId: id }),
    sync_interval: input.syncInterval,
    recursive: input.recursive,
    file_patterns: input.filePatterns,
    enabled: input.enabled,
    error: null,
    last_sync: null,
    next_sync: now,
    last_full_walk: null,
    current_job_id: null,
    last_job_id: null,
    created_by: input.createdBy,
    created_at: now,
    updated_at: now,
  };
  await createCounted(deps, deps.workspaceId, 'sources', async () => (await deps.sources.list()).length, () => deps.sources.create(source));
  await startSync(deps, id, { trigger: 'manual', by: input.createdBy });
  const created = (await deps.sources.get(id)) ?? source;
  return toSourceView(created, 0);
}
