import type { DocumentRepository } from '../documents/ports';
import type { WorkspaceRepository } from '../workspaces/ports';
import type { IndexEntry, SearchIndexStore } from './ports';
import { createDocumentIndexer, type IndexerDeps } from './document-indexer';

export interface ReconcileDeps {
  workspaces: Pick<WorkspaceRepository, 'list'>;
  /** What each workspace's part of the index holds (ids and versions of its live entries). */
  index: Pick<SearchIndexStore, 'listingOf'>;
  /** One workspace's documents, labels, files and index view: what the repair (`createDocumentIndexer`) reads. */
  inWorkspace(workspaceId: string): IndexerDeps & { documents: Pick<DocumentRepository, 'get' | 'getContent' | 'scan' | 'getMany'> };
}

export interface ReconcileOptions {
  /** Count the drift, repair nothing. */
  checkOnly?: boolean;
  /** Only these workspaces (a run split over several invocations); default every workspace. */
  workspaceIds?: string[];
  /** Documents compared at once: a slice of the table's scan looked up in the index, a page of the index looked up in the table. */
  chunkSize?: number;
  /**
   * How long a difference is left to settle before it is read again and judged: the stream consumer trails
   * the table by a fraction of a second, so a change made just before it was read is not drift yet.
   */
  settleMs?: number;
  /** Re-reads and repairs at once. */
  concurrency?: number;
  /** Milliseconds now, and a pause (injected for tests). */
  now?: () => number;
  delay?: (ms: number) => Promise<void>;
}

/** What the check found of one kind or all: drift (`missing`, `stale`, `extra`) and differences that were changes in flight. */
export interface DriftCounts {
  /** Documents of the table the index does not hold. */
  missing: number;
  /** Documents the index holds at an older version than the table. */
  stale: number;
  /** Entries of the index whose document is not in the table. */
  extra: number;
  /** Differences explained by a change made during the check (the document's version moved, or the index caught up). */
  in_flight: number;
  /** Differences reindexed after which the index agreed with the table. */
  repaired: number;
  /** Differences reindexed after which the index still disagreed, or whose reindex failed. */
  unrepaired: number;
}

export interface WorkspaceReconciliation extends DriftCounts {
  workspace_id: string;
  /** Documents read from the table. */
  documents_checked: number;
  /** Live entries read from the index (its listing comes after the table's scan: repairs made by then are counted). */
  index_entries: number;
}

/** One run: totals over every workspace, and the workspaces where drift was found. */
export interface ReconciliationReport extends DriftCounts {
  check_only: boolean;
  workspaces: number;
  documents_checked: number;
  index_entries: number;
  drifted: WorkspaceReconciliation[];
}

/** A difference seen once, judged after it had time to settle. `version`: the table's, as the scan read it. */
interface Candidate {
  report: WorkspaceReconciliation;
  kind: 'missing' | 'stale' | 'extra';
  id: string;
  version: number | null;
  seenAt: number;
}

const COUNT_KEYS = ['missing', 'stale', 'extra', 'in_flight', 'repaired', 'unrepaired'] as const;
const drifted = (report: DriftCounts) => report.missing + report.stale + report.extra > 0;

/**
 * Compares what the search index holds with the table, workspace by workspace, and repairs the drift
 * (issue 17: the index follows the table's stream; this catches what a lost or failed change left behind).
 * - Table to index: the workspace's documents are scanned a page at a time and each chunk's ids are looked up
 *   in the index (`entriesOf`): a document absent is missing, one at an older version is stale.
 * - Index to table: the index's entries are listed a page at a time and each page's ids are looked up in the
 *   table (`getMany`): an entry whose document is absent is extra.
 * Memory stays bounded by the chunk and the differences waiting to settle, never the workspace's size: no
 * side is held whole, and neither needs an order the other shares.
 * A difference is not trusted at once: after `settleMs` the document is read again (strongly consistent) and
 * its entry too, and only a difference that still stands with the same document version counts as drift;
 * the rest are changes in flight. Repairs go through the document indexer's `reindex`, which reads the
 * document now and upserts it by version, or removes it when gone: a removal is never decided on the
 * comparison alone (a document created after the scan would look extra). Safe while documents change.
 */
export async function reconcileSearchIndex(deps: ReconcileDeps, options: ReconcileOptions = {}): Promise<ReconciliationReport> {
  const chunkSize = options.chunkSize ?? 200;
  const settleMs = options.settleMs ?? 2_000;
  const concurrency = options.concurrency ?? 8;
  const now = options.now ?? Date.now;
  const delay = options.delay ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  // Bounds what waits to settle: past this, the check waits for the oldest before it reads on.
  const maxPending = chunkSize * 10;
  const checkOnly = options.checkOnly ?? false;

  const pending: Candidate[] = [];
  const settleDue = async (all: boolean) => {
    while (pending.length && (all || pending.length > maxPending || pending[0]!.seenAt + settleMs <= now())) {
      const wait = pending[0]!.seenAt + settleMs - now();
      if (wait > 0) await delay(wait);
      const due: Candidate[] = [];
      while (pending.length && pending[0]!.seenAt + settleMs <= now() && due.length < chunkSize) due.push(pending.shift()!);
      await settle(deps, due, { checkOnly, concurrency });
    }
  };

  const reports: WorkspaceReconciliation[] = [];
  const only = options.workspaceIds ? new Set(options.workspaceIds) : null;
  for (const workspace of await deps.workspaces.list()) {
    if (only && !only.has(workspace.id)) continue;
    const report: WorkspaceReconciliation = { workspace_id: workspace.id, documents_checked: 0, index_entries: 0, ...zeroCounts() };
    reports.push(report);
    const scoped = deps.inWorkspace(workspace.id);
    const listing = deps.index.listingOf(workspace.id);
    const candidate = (kind: Candidate['kind'], id: string, version: number | null) => pending.push({ report, kind, id, version, seenAt: now() });

    let chunk: { id: string; version: number }[] = [];
    const compareChunk = async () => {
      const held = new Map((await listing.entriesOf(chunk.map((document) => document.id))).map((entry) => [entry.id, entry.version]));
      for (const document of chunk) {
        const version = held.get(document.id);
        if (version === undefined) candidate('missing', document.id, document.version);
        else if (version < document.version) candidate('stale', document.id, document.version);
      }
      report.documents_checked += chunk.length;
      chunk = [];
      await settleDue(false);
    };
    for await (const record of scoped.documents.scan()) {
      chunk.push({ id: record.id, version: record.version ?? 1 });
      if (chunk.length >= chunkSize) await compareChunk();
    }
    if (chunk.length) await compareChunk();

    let cursor: string | null = null;
    do {
      const page = await listing.entries({ cursor, limit: chunkSize });
      const found = new Set((await scoped.documents.getMany(page.entries.map((entry) => entry.id))).map((record) => record.id));
      for (const entry of page.entries) if (!found.has(entry.id)) candidate('extra', entry.id, null);
      report.index_entries += page.entries.length;
      cursor = page.cursor;
      await settleDue(false);
    } while (cursor);
  }
  await settleDue(true);

  const totals: ReconciliationReport = { check_only: checkOnly, workspaces: reports.length, documents_checked: 0, index_entries: 0, ...zeroCounts(), drifted: [] };
  for (const report of reports) {
    totals.documents_checked += report.documents_checked;
    totals.index_entries += report.index_entries;
    for (const key of COUNT_KEYS) totals[key] += report[key];
    if (drifted(report)) totals.drifted.push(report);
  }
  return totals;
}

const zeroCounts = (): DriftCounts => ({ missing: 0, stale: 0, extra: 0, in_flight: 0, repaired: 0, unrepaired: 0 });

/** What a re-read says of a candidate: drift, a change in flight, and whether the index still disagrees. */
type Verdict = { drift: boolean; differs: boolean };

/** Reads the candidates again (the document strongly, its entry as the index holds it now), judges, repairs. */
async function settle(deps: ReconcileDeps, due: Candidate[], options: { checkOnly: boolean; concurrency: number }): Promise<void> {
  const byWorkspace = new Map<string, Candidate[]>();
  for (const candidate of due) {
    const group = byWorkspace.get(candidate.report.workspace_id) ?? [];
    byWorkspace.set(candidate.report.workspace_id, group.concat(candidate));
  }
  for (const [workspaceId, candidates] of byWorkspace) {
    const scoped = deps.inWorkspace(workspaceId);
    const listing = deps.index.listingOf(workspaceId);
    const entriesNow = async (ids: string[]) => new Map((await listing.entriesOf(ids)).map((entry) => [entry.id, entry.version]));
    const ids = candidates.map((candidate) => candidate.id);
    const [held, records] = await Promise.all([entriesNow(ids), inParallel(ids, options.concurrency, (id) => scoped.documents.get(id))]);
    const verdicts = candidates.map((candidate, i) => judge(candidate, records[i]?.version ?? null, held.get(candidate.id)));
    candidates.forEach((candidate, i) => {
      if (verdicts[i]!.drift) candidate.report[candidate.kind] += 1;
      else candidate.report.in_flight += 1;
    });
    const repairs = candidates.filter((_, i) => verdicts[i]!.differs);
    if (options.checkOnly || !repairs.length) continue;
    const indexer = createDocumentIndexer(scoped);
    const failed = new Set<string>();
    await inParallel(repairs, options.concurrency, (candidate) => indexer.reindex(candidate.id).catch(() => failed.add(candidate.id)));
    // The index is read once more: a repair counts when the index now agrees with the table.
    const [after, recordsAfter] = await Promise.all([
      entriesNow(repairs.map((candidate) => candidate.id)),
      inParallel(repairs, options.concurrency, (candidate) => scoped.documents.get(candidate.id)),
    ]);
    repairs.forEach((candidate, i) => {
      const agrees = !failed.has(candidate.id) && !judge(candidate, recordsAfter[i]?.version ?? null, after.get(candidate.id)).differs;
      candidate.report[agrees ? 'repaired' : 'unrepaired'] += 1;
    });
  }
}

/**
 * A candidate against the table's version now (null: gone) and the index's (undefined: no live entry). Drift
 * when the difference stands and the document did not change since the check read it.
 */
function judge(candidate: Candidate, tableVersion: number | null, indexVersion: IndexEntry['version'] | undefined): Verdict {
  const differs = tableVersion === null ? indexVersion !== undefined : indexVersion === undefined || indexVersion < tableVersion;
  if (!differs) return { drift: false, differs };
  if (candidate.kind === 'extra') return { drift: tableVersion === null, differs };
  return { drift: tableVersion === candidate.version, differs };
}

/** Maps the items `concurrency` at a time, results in order. */
async function inParallel<T, R>(items: T[], concurrency: number, map: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await map(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}
