import type { DocumentRecord } from '../../../domain/documents/document';
import type { DocumentContent } from '../../../domain/files/ports';
import { withoutKeys } from './keys';

/** A document's text as its content item (`DOC#id / CONTENT`) holds it: inline, or the object that holds it. */
export function toDocumentContent(item: Record<string, unknown> | undefined): DocumentContent {
  if (typeof item?.['text_object'] === 'string') return { text_object: item['text_object'] };
  return { text: typeof item?.['text'] === 'string' ? item['text'] : '' };
}

/** A stored document item as the domain sees it: no keys, labels a sorted list (never a DynamoDB set), its version. */
export function toDocumentRecord(item: Record<string, unknown>): DocumentRecord {
  const record = withoutKeys<DocumentRecord & { labels?: Iterable<string> }>(item);
  return { ...record, labels: [...(record.labels ?? [])].sort(), version: Number(item['version'] ?? 1) };
}
