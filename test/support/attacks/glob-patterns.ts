import { MAX_PATTERN_WILDCARDS } from '../../../shared/domain/sources/file-patterns';
import type { ApiClient, ApiResponse } from '../api-client';
import { watchRuntimeDuring, type RuntimeWatch } from '../health-watch';
import { finishedSync, type SyncStatus } from '../sync-status';

/**
 * Hostile file patterns, as the security review reproduced them: globs of nested wildcards that a backtracking
 * matcher takes exponential time over on a long name of 'a's that ends without their 'b'. For the e2e test of
 * sources and a bench alike.
 */

/** The pattern of the security review. */
export const REVIEW_PATTERN = '*a*a*a*a*a*a*a*a*a*a*a*a*b';
/** The most hostile pattern the bounds accept: as many wildcards as they allow, each before an 'a', then a 'b'. */
export const MOST_HOSTILE_ACCEPTED_PATTERN = `${'*a'.repeat(MAX_PATTERN_WILDCARDS)}b`;
export const HOSTILE_PATTERNS = [REVIEW_PATTERN, MOST_HOSTILE_ACCEPTED_PATTERN];

/** A name that matches none of the patterns: `length` 'a's and `.pdf` (the review's had forty). */
export const hostileFileName = (length = 40): string => `${'a'.repeat(length)}.pdf`;

/** What {@link syncWithHostilePatterns} saw. */
export interface GlobAttackOutcome {
  /** The answer to POST /api/sources. */
  create: ApiResponse;
  /** The status of the source's first sync once it finished; null when the source was refused. */
  sync: SyncStatus | null;
  /** /api/health and the runtime's memory from the create to the end of the sync. */
  watch: RuntimeWatch;
  /** From the create to the end of the sync. */
  elapsedMs: number;
}

/**
 * The attack: an editor creates a source with the hostile patterns on a WebDAV folder (which should hold files
 * named by {@link hostileFileName}); the create starts its first sync, which matches the patterns against every
 * name. /api/health is polled and the runtime's memory sampled until the sync has finished.
 */
export async function syncWithHostilePatterns(
  runtime: { baseUrl: string; child: { pid?: number | undefined } },
  editor: ApiClient,
  folder: { url: string; username: string; password: string },
  options: { patterns?: string[]; syncTimeoutMs?: number } = {},
): Promise<GlobAttackOutcome> {
  const started = performance.now();
  const attack = (async () => {
    const create = await editor.post('/api/sources', {
      name: 'Hostile patterns',
      type: 'webdav',
      url: folder.url,
      username: folder.username,
      password: folder.password,
      file_patterns: options.patterns ?? HOSTILE_PATTERNS,
    });
    const sync = create.status === 201 ? await finishedSync(editor, create.body.id, undefined, options.syncTimeoutMs) : null;
    return { create, sync, elapsedMs: performance.now() - started };
  })();
  const watch = await watchRuntimeDuring(runtime, attack);
  return { ...(await attack), watch };
}
