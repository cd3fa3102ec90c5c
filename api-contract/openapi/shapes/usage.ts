import * as z from '../../../shared/zod';
import { MONTH_PATTERN } from '../../../shared/domain/usage/usage';
import { id, shape } from './registry';

const count = (description: string) => z.int().check(z.gte(0), z.describe(description));
const month = () => z.string().check(z.regex(MONTH_PATTERN), z.describe('The calendar month (UTC), `YYYY-MM`.'));

/** One workspace's usage counters for one month (shared/domain/usage/usage.ts `WorkspaceUsage`). */
export const WorkspaceUsage = shape(
  'WorkspaceUsage',
  'What one workspace used in one calendar month (UTC), for billing.',
  z.strictObject({
    workspace_id: id(),
    name: z.string().check(z.describe("The workspace's name (empty if the workspace is gone).")),
    month: month(),
    documents_stored: count('Documents stored at the end of the month (now, for the current month).'),
    bytes_stored: count('Bytes of original files stored at the end of the month (now, for the current month).'),
    documents_uploaded: count('Documents created in the month.'),
    documents_deleted: count('Documents deleted in the month.'),
    bytes_uploaded: count('Bytes of the original files created in the month.'),
    bytes_deleted: count('Bytes of the original files deleted in the month.'),
    pages_ocred: count('Pages of the OCR runs completed in the month, every engine; blank pages, which nothing reads, are not counted.'),
    pages_ocred_by_engine: z
      .record(z.string(), z.int().check(z.gte(0)))
      .check(z.describe('The same pages by what read each one: `tesseract`, `textract`, `text_layer` (a PDF\'s own text, kept page by page where it is usable, so a PDF with one scanned page counts that page alone under its OCR engine); only engines that read pages appear.')),
    search_requests: count('Searches that ran (simple and advanced).'),
    api_requests: count('Authenticated HTTP requests, including those refused by a rate limit.'),
  }),
);

/** Every workspace's usage for one month: the operator's view. */
export const UsageReport = shape(
  'UsageReport',
  "Every workspace's usage in one calendar month (UTC), oldest workspace first.",
  z.strictObject({ month: month(), workspaces: z.array(WorkspaceUsage) }),
);
