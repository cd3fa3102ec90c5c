import type { IndexEntry, IndexEntryPage } from '../../../domain/search/ports';
import { entryIdOf } from './query';

/*
 * The bodies and parsers of the index listing (SearchIndexListing) on OpenSearch: what the reconciliation with
 * the table reads. Versions are the entries' external versions (`_version`), which are the documents' versions.
 */

type Dsl = Record<string, unknown>;

/**
 * One page of the workspace's live entries, ordered by document id and continued with `search_after` (the
 * last page's id): no scroll context to keep open between pages, and an id is never listed twice.
 */
export function buildListingBody(workspaceId: string, cursor: string | null | undefined, limit: number): Dsl {
  return {
    size: limit,
    _source: false,
    version: true,
    track_total_hits: false,
    query: { bool: { filter: [{ term: { workspace_id: workspaceId } }, { term: { deleted: false } }] } },
    sort: [{ id: 'asc' }],
    ...(cursor ? { search_after: [cursor] } : {}),
  };
}

interface ListingResponseBody {
  hits: { hits: { _id: string; _version?: number; sort?: unknown[] }[] };
}

/** The page's entries (the id is the sort value) and the cursor of the next page, null after a short page. */
export function parseListingResponse(body: ListingResponseBody, limit: number): IndexEntryPage {
  const entries: IndexEntry[] = body.hits.hits.map((hit) => ({ id: String(hit.sort?.[0] ?? ''), version: Number(hit._version ?? 0) }));
  return { entries, cursor: entries.length === limit ? entries[entries.length - 1]!.id : null };
}

/** A multi-get of the workspace's entries of these ids: real-time (no refresh needed), the tombstone flag only. */
export const buildEntriesOfBody = (workspaceId: string, ids: string[]): Dsl => ({
  docs: ids.map((id) => ({ _id: entryIdOf(workspaceId, id), _source: ['deleted'] })),
});

interface MultiGetResponseBody {
  docs: { _id: string; found?: boolean; _version?: number; _source?: { deleted?: boolean } }[];
}

/** The live entries of a multi-get, in the order of `ids` (the response's order): missing ones and tombstones left out. */
export function parseEntriesOfResponse(body: MultiGetResponseBody, ids: string[]): IndexEntry[] {
  return body.docs.flatMap((doc, i) => (doc.found && doc._source?.deleted !== true ? [{ id: ids[i]!, version: Number(doc._version ?? 0) }] : []));
}
