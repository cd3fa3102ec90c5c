/**
 * Usage metering for pay-per-use billing: what one workspace used in one calendar month (UTC).
 *
 * Documents and bytes: every create and delete of a document moves its month's `documents_uploaded` /
 * `bytes_uploaded` or `documents_deleted` / `bytes_deleted` in the same transaction. What was stored at the end of
 * a month (`documents_stored`, `bytes_stored`; for the current month, now) is the sum of the uploads less the
 * deletions of every month up to it: exact, with no snapshot to take at midnight. Bytes are the original files'
 * sizes (the `size` of the document), not the thumbnails or extracted text derived from them.
 *
 * Pages: each completed OCR run adds its pages to its month under the engine that read them (`tesseract`,
 * `textract`, or `text_layer` when a PDF's own text was taken), in the job's completion transaction. A run that
 * is retried and completes again counts again: each one was work done.
 *
 * Requests: `search_requests` counts every search that ran (GET /api/search, POST /api/search/advanced);
 * `api_requests` every authenticated HTTP request, refused by a rate limit or not (see the request gate, `shared/container/kit/request-gate.ts`).
 */

/** A calendar month, `YYYY-MM` (UTC). */
export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The calendar month (UTC) of an instant, as `YYYY-MM`. */
export const monthOf = (at: Date | string): string => (typeof at === 'string' ? new Date(at) : at).toISOString().slice(0, 7);

/** The engines whose pages a bill names, in the order of the CSV's columns; others found follow them. */
export const OCR_ENGINES = ['tesseract', 'textract', 'text_layer'] as const;

/** One workspace's counters for one month. */
export interface UsageCounters {
  /** Documents stored at the month's end (now, for the current month). */
  documents_stored: number;
  /** Bytes of original files stored at the month's end (now, for the current month). */
  bytes_stored: number;
  documents_uploaded: number;
  documents_deleted: number;
  bytes_uploaded: number;
  bytes_deleted: number;
  /** Pages of completed OCR runs, every engine. */
  pages_ocred: number;
  /** The same pages by the engine that read them. */
  pages_ocred_by_engine: Record<string, number>;
  search_requests: number;
  api_requests: number;
}

/** The counters of a workspace and month, as GET /api/usage answers them. */
export interface WorkspaceUsage extends UsageCounters {
  workspace_id: string;
  name: string;
  month: string;
}

export const noUsage = (): UsageCounters => ({
  documents_stored: 0,
  bytes_stored: 0,
  documents_uploaded: 0,
  documents_deleted: 0,
  bytes_uploaded: 0,
  bytes_deleted: 0,
  pages_ocred: 0,
  pages_ocred_by_engine: {},
  search_requests: 0,
  api_requests: 0,
});
