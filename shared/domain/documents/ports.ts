import type { Page, PageRequest } from '../pagination';
import type { OcrJob } from '../ocr/jobs';
import type { DocumentContent } from '../files/ports';
import type { DocumentRecord, DocumentStatus, Metadata } from './document';

export const DOCUMENT_SORT_FIELDS = ['created_at', 'updated_at', 'title', 'size', 'filename'] as const;
export type DocumentSortField = (typeof DOCUMENT_SORT_FIELDS)[number];

export interface DocumentQuery extends PageRequest {
  sort: DocumentSortField;
  order: 'asc' | 'desc';
  status?: DocumentStatus | undefined;
  sourceId?: string | undefined;
  /** Documents carrying all of these labels. */
  labelIds?: string[] | undefined;
  /** Bounds on created_at, inclusive. */
  createdFrom?: string | undefined;
  createdTo?: string | undefined;
}

export interface DocumentChanges {
  title?: string | undefined;
  labels?: string[] | undefined;
  metadata?: Metadata | undefined;
}

/**
 * Documents and their label memberships. Writes that touch labels keep every label's document_count exact:
 * a label is counted once per document that carries it, in the same transaction as the change.
 */
export interface DocumentRepository {
  /**
   * Stores a new document, with its queued OCR job when it has one, and counts it in its labels; throws a 400
   * naming the labels when one does not exist.
   */
  create(document: DocumentRecord, ocrJob?: OcrJob): Promise<void>;
  get(id: string): Promise<DocumentRecord | null>;
  /** The extracted text, inline or (when too large for the table) as the key of an object holding it. */
  getContent(id: string): Promise<DocumentContent>;
  list(query: DocumentQuery): Promise<Page<DocumentRecord>>;
  /** Applies the changes (labels replace the document's labels); null when the document does not exist. */
  update(id: string, changes: DocumentChanges, updatedAt: string): Promise<DocumentRecord | null>;
  /** Removes the document, its text, its OCR job and its label memberships; false when it did not exist. */
  delete(id: string): Promise<boolean>;
  /**
   * Every document, oldest first, read a page at a time as the caller consumes them: for rebuilding derived
   * data (the search index) without holding the whole table in memory.
   */
  scan(): AsyncIterable<DocumentRecord>;
  /** The records of these ids that exist, in the order given. */
  getMany(ids: string[]): Promise<DocumentRecord[]>;
  /** A document of the workspace whose file has this SHA-256 (any one), or null. */
  findBySha256(sha256: string): Promise<string | null>;
  /** Records a new file of the document (its source changed it); null when the document does not exist. */
  replaceFile(id: string, file: ReplacedFile, updatedAt: string): Promise<DocumentRecord | null>;
}

/** What a document's new file changes in its record. */
export interface ReplacedFile {
  size: number;
  sha256: string;
  mime_type: string;
}

/**
 * Serves the filtered and sorted listings that the document table can only answer by reading every row: the
 * ids of one page, in order, and how many documents match. Null when it cannot serve the query.
 */
export interface DocumentListingIndex {
  list(query: DocumentQuery): Promise<{ ids: string[]; total: number } | null>;
}

/** Whether the table serves a listing from its own index (newest or oldest first, nothing filtered). */
export const isPlainListing = (query: DocumentQuery): boolean =>
  query.sort === 'created_at' && !query.status && !query.sourceId && !query.createdFrom && !query.createdTo && !query.labelIds?.length;

/** An upload announced through a presigned URL, waiting for its file (or refused once the file was seen). */
export interface PendingUpload {
  /** The id the document will have. */
  id: string;
  filename: string;
  title: string | null;
  /** The size the client announced; the stored file must have exactly this size. */
  size: number;
  labels: string[];
  ocr_enabled: boolean;
  language: string;
  created_by: string;
  created_at: string;
  /** When the upload URL stops working. */
  expires_at: string;
  state: 'awaiting_file' | 'rejected';
  /** Why the file was refused, once it was. */
  reason: string | null;
}

/** Announced uploads; each disappears by itself a day after its URL expired. */
export interface PendingUploadRepository {
  create(upload: PendingUpload): Promise<void>;
  get(id: string): Promise<PendingUpload | null>;
  /** Marks the upload refused, keeping the reason for the client to read. */
  reject(id: string, reason: string): Promise<void>;
  delete(id: string): Promise<void>;
}
