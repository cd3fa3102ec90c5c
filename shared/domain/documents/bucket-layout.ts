import { STAGING_PREFIX, SYNC_STAGING_PREFIX, WORKSPACES_PREFIX } from '../../manifest';
import { BOOTSTRAP_WORKSPACE_ID } from '../workspaces/workspace';
import { UUID } from './document';
import type { FileStore } from '../files/ports';

/**
 * Where a workspace's object lives in the bucket. Use cases name keys within their workspace (`fileKeys`:
 * `documents/<id>/...`, `uploads/<id>`); the bucket holds them under `workspaces/<workspace id>/`, and staged
 * uploads under `uploads/<workspace id>/` (and files a source sync is writing under `sync-staging/<workspace id>/`) so that the bucket's notification and lifecycle rules can name them by
 * one prefix.
 */
export function bucketKey(workspaceId: string, key: string): string {
  for (const prefix of [STAGING_PREFIX, SYNC_STAGING_PREFIX]) {
    if (key.startsWith(prefix)) return `${prefix}${workspaceId}/${key.slice(prefix.length)}`;
  }
  return `${WORKSPACES_PREFIX}${workspaceId}/${key}`;
}

/**
 * The workspace and the workspace's own key of a staged upload's object, as the bucket's notification names
 * it; null for any other object. A staged upload written before workspaces (`uploads/<id>`) belongs to the
 * first workspace, which adopted everything written before.
 */
export function stagedObject(bucketObjectKey: string): { workspaceId: string; key: string } | null {
  if (!bucketObjectKey.startsWith(STAGING_PREFIX)) return null;
  const parts = bucketObjectKey.slice(STAGING_PREFIX.length).split('/');
  if (parts.length === 1 && UUID.test(parts[0]!)) return { workspaceId: BOOTSTRAP_WORKSPACE_ID, key: bucketObjectKey };
  if (parts.length === 2 && UUID.test(parts[0]!) && UUID.test(parts[1]!)) return { workspaceId: parts[0]!, key: `${STAGING_PREFIX}${parts[1]}` };
  return null;
}

/**
 * One workspace's part of the bucket: the same operations as the whole store, with every key taken as the
 * workspace's own, so a use case cannot name another workspace's object.
 */
export function workspaceFileStore(bucket: FileStore, workspaceId: string): FileStore {
  const at = (key: string) => bucketKey(workspaceId, key);
  return {
    put: (key, bytes, contentType) => bucket.put(at(key), bytes, contentType),
    putStream: (key, chunks, options) => bucket.putStream(at(key), chunks, options),
    get: (key) => bucket.get(at(key)),
    deletePrefix: (prefix) => bucket.deletePrefix(at(prefix)),
    downloadUrl: (key, filename, contentType) => bucket.downloadUrl(at(key), filename, contentType),
    uploadUrl: (key, expiresInSeconds, contentLength) => bucket.uploadUrl(at(key), expiresInSeconds, contentLength),
    inspect: (key, headBytes) => bucket.inspect(at(key), headBytes),
    move: (from, to, contentType) => bucket.move(at(from), at(to), contentType),
    bucketKey: (key) => bucket.bucketKey(at(key)),
  };
}
