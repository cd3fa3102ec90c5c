import { STAGING_PREFIX } from '../../manifest';

export const DOCUMENT_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** Flat key/value metadata: no nesting, bounded in keys and size (see the PUT schema). */
export type Metadata = Record<string, string | number | boolean | null>;

/** A stored document, without its extracted text (kept apart so that lists stay small). */
export interface DocumentRecord {
  id: string;
  title: string;
  filename: string;
  mime_type: string;
  size: number;
  sha256: string;
  status: DocumentStatus;
  ocr_enabled: boolean;
  language: string;
  ocr_confidence: number | null;
  labels: string[];
  metadata: Metadata;
  source_id: string | null;
  failure_reason: string | null;
  /** Pages of the last completed OCR run by what read them (`text_layer`, `tesseract`, `textract`); absent before one. */
  pages_ocred_by_engine?: Record<string, number>;
  /** Bytes of the searchable PDF stored beside the original, once written (counted in the workspace's bytes). */
  searchable_pdf_size?: number;
  /** Why the last completed run left no searchable PDF (a code of `SearchablePdfState`), and the message for the user. */
  searchable_pdf_reason?: string;
  searchable_pdf_message?: string;
  created_by: string;
  created_at: string;
  updated_at: string;
  /** Grows with every change of the stored record (set by the repository); orders search-index updates. */
  version?: number;
}

/**
 * Document fields whose change is reported to clients (what users edit, and the file a sync replaces): the
 * `document_updated` event and the `document.updated` webhook name them.
 */
export const REPORTED_FIELDS = ['title', 'labels', 'metadata', 'size', 'mime_type'] as const;

/** The P Document of a list row: everything but the extracted text, which a list never carries. */
export type DocumentSummary = Omit<
  DocumentRecord,
  'ocr_enabled' | 'failure_reason' | 'created_by' | 'version' | 'pages_ocred_by_engine' | 'searchable_pdf_size' | 'searchable_pdf_reason' | 'searchable_pdf_message'
> & {
  failure_reason?: string | null;
};

/**
 * The P Document: the record and its extracted text as `content`, with `pages_ocred_by_engine` (null until an OCR
 * run completed), which a list row does not carry.
 */
export type DocumentView = DocumentSummary & { content: string; pages_ocred_by_engine: Record<string, number> | null };

export const toSummary = (record: DocumentRecord): DocumentSummary => ({
  id: record.id,
  title: record.title,
  filename: record.filename,
  mime_type: record.mime_type,
  size: record.size,
  sha256: record.sha256,
  status: record.status,
  language: record.language,
  ocr_confidence: record.ocr_confidence,
  labels: record.labels,
  metadata: record.metadata,
  source_id: record.source_id,
  created_at: record.created_at,
  updated_at: record.updated_at,
  ...(record.status === 'failed' ? { failure_reason: record.failure_reason } : {}),
});

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The document id of a staged upload's key, or null for any other key. */
export const stagedUploadId = (key: string): string | null => {
  if (!key.startsWith(STAGING_PREFIX)) return null;
  const id = key.slice(STAGING_PREFIX.length);
  return UUID.test(id) ? id : null;
};

/** The P limit on a document's size. */
export const MAX_DOCUMENT_BYTES = 500 * 1024 * 1024;
