import { notFound } from '../errors';
import type { SourceChanges } from './ports';
import { checkSourceAccess } from './check-source-access';
import type { SourceDeps } from './create-source';
import { nextSyncAfter, toSourceView, type SourceView } from './source';

export interface SourceUpdate {
  name?: string | undefined;
  url?: string | undefined;
  username?: string | undefined;
  password?: string | undefined;
  syncInterval?: number | undefined;
  recursive?: boolean | undefined;
  filePatterns?: string[] | undefined;
  enabled?: boolean | undefined;
}

/**
 * Changes any subset of a source's fields. A new URL, username or password is checked against the server first
 * (with the stored password when none is given); a new interval moves the next sync. A sync that runs meanwhile
 * keeps the settings it started with.
 */
export async function updateSource(deps: SourceDeps, id: string, update: SourceUpdate): Promise<SourceView> {
  const source = await deps.sources.get(id);
  if (!source) throw notFound('Source', id);
  const context = { workspaceId: deps.workspaceId, sourceId: id };
  const url = update.url === undefined ? source.url : update.url.endsWith('/') ? update.url : `${update.url}/`;
  const changes: SourceChanges = { updated_at: deps.clock.now().toISOString() };
  if (update.url !== undefined || update.username !== undefined || update.password !== undefined) {
    const password = update.password ?? (await deps.vault.open(source.password_sealed, context));
    await checkSourceAccess(deps.remoteFolders, { url, username: update.username ?? source.username, password });
    Object.assign(changes, { url, username: update.username ?? source.username, error: null });
    if (update.password !== undefined) changes.password_sealed = await deps.vault.seal(update.password, context);
    // Another folder (or account) is another tree: compare every file on the next sync.
    if (url !== source.url || (update.username ?? source.username) !== source.username) changes.last_full_walk = null;
  }
  if (update.name !== undefined) changes.name = update.name;
  if (update.recursive !== undefined) changes.recursive = update.recursive;
  if (update.filePatterns !== undefined) {
    changes.file_patterns = update.filePatterns;
    // Files the old patterns left out were never remembered; a full walk finds them.
    changes.last_full_walk = null;
  }
  if (update.enabled !== undefined) changes.enabled = update.enabled;
  if (update.syncInterval !== undefined) {
    changes.sync_interval = update.syncInterval;
    changes.next_sync = source.last_sync ? nextSyncAfter(new Date(source.last_sync), update.syncInterval) : deps.clock.now().toISOString();
  }
  if (update.recursive === true && !source.recursive) changes.last_full_walk = null;
  const updated = await deps.sources.update(id, changes);
  if (!updated) throw notFound('Source', id);
  const counts = await deps.sources.documentCounts([id]);
  return toSourceView(updated, counts.get(id) ?? 0);
}
