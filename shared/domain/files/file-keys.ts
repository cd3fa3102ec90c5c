import { STAGING_PREFIX, SYNC_STAGING_PREFIX } from '../../manifest';

/** Object keys of a document's files, within its workspace's part of the bucket (see documents/bucket-layout.ts). */
export const fileKeys = {
  original: (id: string) => `documents/${id}/original`,
  thumbnail: (id: string, width: number, height: number) => `documents/${id}/thumbnails/${width}x${height}`,
  prefix: (id: string) => `documents/${id}/`,
  /** The searchable PDF written after OCR: the original pages with the words read laid on them. */
  searchablePdf: (id: string) => `documents/${id}/searchable.pdf`,
  /** Extracted text too large for a table item. */
  text: (id: string) => `documents/${id}/text.txt`,
  /** Where a presigned upload puts the file until it is checked and moved to `original`. */
  staged: (id: string) => `${STAGING_PREFIX}${id}`,
  /** Where a source sync writes a file until it is checked and moved to `original` (or dropped). */
  syncStaged: (id: string) => `${SYNC_STAGING_PREFIX}${id}`,
  thumbnails: (id: string) => `documents/${id}/thumbnails/`,
};
