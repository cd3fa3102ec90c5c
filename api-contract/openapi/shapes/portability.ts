import * as z from '../../../shared/zod';
import { EXPORT_STATES, IMPORT_STATES } from '../../../shared/domain/portability/jobs';
import { ROLES } from '../../../shared/domain/principal';
import { id, shape, timestamp } from './registry';

const count = (description: string) => z.int().check(z.gte(0), z.describe(description));

/** An export of the workspace: its progress, then its archive's download link. */
export const WorkspaceExport = shape(
  'WorkspaceExport',
  "An export of the workspace to one archive (a gzip'd tar, format 1: see docs/export-and-import.md).",
  z.strictObject({
    id: id(),
    status: z.enum(EXPORT_STATES).check(z.describe('`queued`, `running`, then `completed` (the archive is ready) or `failed` (see `failure_reason`).')),
    progress: z.strictObject({
      percent: z.int().check(z.gte(0), z.lte(100)),
      documents_done: count('Documents written to the archive so far.'),
      documents_total: count('Documents of the workspace when the export began.'),
      bytes_done: count('Bytes of original files written so far.'),
    }),
    created_at: timestamp(),
    finished_at: z.nullable(timestamp()),
    size: z.nullable(z.int().check(z.gte(0))).check(z.describe("The archive's size in bytes, once completed.")),
    sha256: z.nullable(z.string()).check(z.describe("The archive's SHA-256 (hex), once completed.")),
    download_url: z.nullable(z.url()).check(z.describe('Once completed: a link that downloads the archive, working until `download_expires_at` (an hour); each read gives a new one.')),
    download_expires_at: z.nullable(timestamp()),
    failure_reason: z.nullable(z.string()).check(z.describe('Why the export failed: `<reason>: <detail>`, the reason one of `missing_file`, `workspace_suspended`, `internal_error`.')),
  }),
);

const ImportResult = z.strictObject({
  documents: count('Documents imported, with their texts (no OCR ran again).'),
  files: count('Original files imported, byte for byte.'),
  labels: count('Labels imported, with their assignments.'),
  sources: count('Sources imported: disabled and without a password until an admin sets one.'),
  rules: count('Labelling rules imported.'),
  users_not_imported: z
    .array(z.strictObject({ id: z.string(), username: z.string(), email: z.string(), role: z.enum(ROLES) }))
    .check(z.describe("The archive's users: not imported (invite them again).")),
  webhooks_not_imported: count("The archive's webhooks: not imported (their secrets are not in it)."),
});

const importFields = {
  id: id(),
  status: z
    .enum(IMPORT_STATES)
    .check(z.describe('`awaiting_archive` (PUT it to the upload URL, then start), `queued`, `validating`, `importing`, then `completed` or `failed` (see `failure_reason`; nothing of it was kept).')),
  progress: z.strictObject({
    percent: z.int().check(z.gte(0), z.lte(100)),
    documents_done: count('Documents written so far.'),
    documents_total: count('Documents in the archive (known once it was validated).'),
  }),
  created_at: timestamp(),
  finished_at: z.nullable(timestamp()),
  result: z.nullable(ImportResult),
  failure_reason: z
    .nullable(z.string())
    .check(
      z.describe(
        'Why the archive was refused or the import failed: `<reason>: <detail>`, the reason one of `invalid_format`, `unsupported_version`, `checksum_mismatch`, `size_mismatch`, `missing_entry`, `unexpected_entry`, `invalid_record`, `workspace_not_empty`, `import_running` (another import into the workspace is running), `workspace_suspended`, `quota_exceeded`, `internal_error`.',
      ),
    ),
};

/** An import into the workspace. */
export const WorkspaceImport = shape('WorkspaceImport', 'An import of an archive into the (empty) workspace.', z.strictObject(importFields));

/** An import announced: where its archive goes. */
export const WorkspaceImportGrant = shape(
  'WorkspaceImportGrant',
  'An import announced: PUT the archive (exactly `size` bytes) to `upload_url` before `expires_at`, then POST …/start.',
  z.strictObject({
    ...importFields,
    upload_url: z.url(),
    method: z.literal('PUT'),
    headers: z.record(z.string(), z.string()).check(z.describe('Headers the PUT must carry (none beyond its Content-Length).')),
    expires_at: timestamp(),
  }),
);
