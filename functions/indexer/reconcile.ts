import { reconcileSearchIndex, type ReconcileDeps, type ReconcileOptions, type ReconciliationReport } from '../../shared/domain/search/reconcile-index';
import type { ReconcileEvent } from '../../shared/manifest';
import { logger as defaultLogger, type Logger } from '../../shared/observability/logger';

/**
 * Runs the reconciliation of the search index with the table (reconcileSearchIndex) and logs what it found:
 * a warning per workspace with drift, with its counts, and one line for the run. `options` are the defaults
 * of every run; the event may ask for a check only.
 */
export const createReconcileHandler =
  (deps: ReconcileDeps, options: ReconcileOptions = {}, logger: Logger = defaultLogger) =>
  async (event?: Partial<ReconcileEvent>): Promise<ReconciliationReport> => {
    const checkOnly = event?.check_only ?? options.checkOnly ?? false;
    const workspaceIds = event?.workspace_ids ?? options.workspaceIds;
    const report = await reconcileSearchIndex(deps, { ...options, checkOnly, ...(workspaceIds ? { workspaceIds } : {}) });
    for (const workspace of report.drifted) {
      logger.warn('indexer: search index drift', { ...workspace, check_only: checkOnly });
    }
    const { drifted, ...totals } = report;
    const line = drifted.length ? 'indexer: search index reconciled, drift found' : 'indexer: search index reconciled';
    if (drifted.length || report.unrepaired) logger.warn(line, { ...totals, drifted_workspaces: drifted.length });
    else logger.info(line, totals);
    return report;
  };
