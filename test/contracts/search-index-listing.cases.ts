import { expect, it } from 'vitest';
import type { IndexEntry, SearchIndexListing, SearchIndexStore } from '../../shared/domain/search/ports';

/** The corpus workspace's state that the listing cases read (set up by the contract's beforeAll). */
export interface ListingCorpus {
  workspaceId: string;
  otherWorkspaceId: string;
  /** Every live entry of the workspace, with its version. */
  live: IndexEntry[];
  /** An id the workspace removed (a tombstone), and the other workspace's ids. */
  removedId: string;
  otherIds: string[];
}

/** Every entry of a listing, read a page at a time, and how many pages it took. */
async function readAll(listing: SearchIndexListing, limit: number): Promise<{ entries: IndexEntry[]; pages: number }> {
  const entries: IndexEntry[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await listing.entries({ cursor, limit });
    entries.push(...page.entries);
    cursor = page.cursor;
    pages++;
  } while (cursor && pages < 1000);
  return { entries, pages };
}

const byId = (a: IndexEntry, b: IndexEntry) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The index listing (SearchIndexListing) that the reconciliation with the table reads: the contract cases
 * every adapter passes, on the contract's corpus (called inside its describe, after its beforeAll).
 */
export function listingCases(subject: () => SearchIndexStore, corpus: () => ListingCorpus): void {
  it('lists every live entry of the workspace exactly once, with its version, a page at a time', async () => {
    // Arrange
    const { workspaceId, live } = corpus();

    // Act
    const { entries, pages } = await readAll(subject().listingOf(workspaceId), 100);

    // Assert
    expect(pages).toBeGreaterThan(1);
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(entries.length);
    expect([...entries].sort(byId)).toEqual([...live].sort(byId));
  });

  it('leaves a removed document (its tombstone) out of the listing and out of a lookup', async () => {
    // Arrange
    const { workspaceId, removedId } = corpus();
    const listing = subject().listingOf(workspaceId);

    // Act
    const { entries } = await readAll(listing, 500);
    const looked = await listing.entriesOf([removedId]);

    // Assert
    expect(entries.map((entry) => entry.id)).not.toContain(removedId);
    expect(looked).toEqual([]);
  });

  it("lists only the workspace's own entries", async () => {
    // Arrange
    const { otherWorkspaceId, otherIds } = corpus();

    // Act
    const { entries } = await readAll(subject().listingOf(otherWorkspaceId), 100);

    // Assert
    expect(entries.map((entry) => entry.id).sort()).toEqual([...otherIds].sort());
  });

  it('lists nothing, and no next page, for a workspace without entries', async () => {
    // Arrange
    const listing = subject().listingOf(crypto.randomUUID());

    // Act
    const page = await listing.entries({ limit: 100 });

    // Assert
    expect(page).toEqual({ entries: [], cursor: null });
  });

  it("looks entries up by id: the workspace's live ones with their versions, every other id left out", async () => {
    // Arrange
    const { workspaceId, live, removedId, otherIds } = corpus();
    const wanted = [live[0]!, live[live.length - 1]!];

    // Act
    const looked = await subject()
      .listingOf(workspaceId)
      .entriesOf([...wanted.map((entry) => entry.id), removedId, otherIds[0]!, crypto.randomUUID()]);

    // Assert
    expect([...looked].sort(byId)).toEqual([...wanted].sort(byId));
  });
}
