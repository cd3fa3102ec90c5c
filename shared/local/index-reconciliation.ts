import { createReconcileHandler } from '../../functions/indexer/reconcile';
import { reconcileDepsOf } from '../../functions/indexer/deps';
import type { IndexSources } from '../container/kit/workspace-stores';
import type { WorkspaceRepository } from '../domain/workspaces/ports';
import type { SearchIndexStore } from '../domain/search/ports';
import { logger } from '../observability/logger';
import { INDEX_RECONCILE_HOURS } from '../manifest';

/** The first run after start: it catches what a stream trimmed during a long stop (over 24 hours) left out. */
const FIRST_RUN_AFTER_MS = 60_000;

/**
 * The local stand-in for the cloud's schedule of the indexer's reconciliation: a minute after start (once any
 * rebuild of the index is done), then every INDEX_RECONCILE_HOURS. A run that fails is logged and tried again
 * at the next. `stop` waits for a run in progress, which must end before the index closes.
 */
export function scheduleIndexReconciliation(
  sources: IndexSources & { workspaces: WorkspaceRepository },
  index: SearchIndexStore,
  after: Promise<unknown> = Promise.resolve()): { stop(): Promise<void> } {
  const reconcile = createReconcileHandler(reconcileDepsOf(sources, index));
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const schedule = (ms: number) => {
    timer = setTimeout(() => {
      running = after
        .then(() => reconcile())
        .then(
          () => undefined,
          (error: unknown) => logger.error('search: reconciling the index with the table failed', { error }),
        )
        .finally(() => {
          if (!stopped) schedule(INDEX_RECONCILE_HOURS * 3_600_000);
        });
    }, ms);
    timer.unref();
  };
  schedule(FIRST_RUN_AFTER_MS);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
