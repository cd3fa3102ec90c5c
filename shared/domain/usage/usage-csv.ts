import { OCR_ENGINES, type WorkspaceUsage } from './usage';

/** The CSV's fixed columns, before the pages of each engine and after them. */
const LEADING = ['workspace_id', 'name', 'month', 'documents_stored', 'bytes_stored', 'documents_uploaded', 'documents_deleted', 'bytes_uploaded', 'bytes_deleted', 'pages_ocred'] as const;
const TRAILING = ['search_requests', 'api_requests'] as const;

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
const field = (value: string | number): string => {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/**
 * The usage report as CSV for a billing system: a header, then one row per workspace (CRLF line ends, RFC 4180).
 * Pages are split by engine in `pages_<engine>` columns: the known engines always (so that the columns of every
 * month are the same), then any other engine found, by name.
 */
export function usageCsv(rows: WorkspaceUsage[]): string {
  const others = [...new Set(rows.flatMap((row) => Object.keys(row.pages_ocred_by_engine)))]
    .filter((engine) => !(OCR_ENGINES as readonly string[]).includes(engine))
    .sort();
  const engines = [...OCR_ENGINES, ...others];
  const header = [...LEADING, ...engines.map((engine) => `pages_${engine}`), ...TRAILING];
  const lines = rows.map((row) =>
    [...LEADING.map((column) => row[column]), ...engines.map((engine) => row.pages_ocred_by_engine[engine] ?? 0), ...TRAILING.map((column) => row[column])]
      .map(field)
      .join(','),
  );
  return [header.join(','), ...lines].map((line) => `${line}\r\n`).join('');
}
