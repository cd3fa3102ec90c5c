import type { DocumentContent } from '../../../domain/files/ports';

/** A document's text as its content item (`DOC#id / CONTENT`) holds it: inline, or the object that holds it. */
export function toDocumentContent(item: Record<string, unknown> | undefined): DocumentContent {
  if (typeof item?.['text_object'] === 'string') return { text_object: item['text_object'] };
  return { text: typeof item?.['text'] === 'string' ? item['text'] : '' };
}
