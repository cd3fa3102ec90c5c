import { pageOf, type Page } from '../pagination';
import { toSummary, type DocumentSummary } from './document';
import { isPlainListing, type DocumentListingIndex, type DocumentQuery, type DocumentRepository } from './ports';

/**
 * One page of documents, without their text. The table serves the first page of the plain listing from its own
 * index, reading only that page; deeper pages and filtered or sorted listings go to the listing index when the
 * runtime has one (it finds the page's ids, the table gives their records), else to the table, which then reads
 * every row up to the page (or every row).
 */
export async function listDocuments(
  deps: { documents: DocumentRepository; listingIndex?: DocumentListingIndex | undefined },
  query: DocumentQuery,
): Promise<Page<DocumentSummary>> {
  if ((!isPlainListing(query) || query.page > 1) && deps.listingIndex) {
    const found = await deps.listingIndex.list(query);
    if (found) return pageOf((await deps.documents.getMany(found.ids)).map(toSummary), query, found.total);
  }
  const page = await deps.documents.list(query);
  return { ...page, data: page.data.map(toSummary) };
}
