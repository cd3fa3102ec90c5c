import type { routes } from '../../../functions/sources/schemas';
import type { GroupDocs } from '../operation-docs';
import { Source, SourceList, SyncStarted, SyncStatus } from '../shapes/sources';

const sourceId = '3c9d2e1f-4b5a-4c6d-8e7f-9a0b1c2d3e4f';
const jobId = '7e6d5c4b-3a29-4f18-9e0d-c1b2a3f4e5d6';

const source = {
  id: sourceId,
  name: 'Office NAS',
  type: 'webdav',
  url: 'https://nas.example.com/remote.php/dav/files/scanner/Scans/',
  username: 'scanner',
  status: 'active',
  status_reason: null,
  enabled: true,
  last_sync: '2026-11-02T09:00:00.000Z',
  next_sync: '2026-11-02T10:00:00.000Z',
  document_count: 42,
  sync_interval: 3600,
  recursive: true,
  file_patterns: ['*.pdf', '2026/**/*.tif'],
  created_at: '2026-10-01T08:00:00.000Z',
  updated_at: '2026-10-01T08:00:00.000Z',
};

// Which failures of the folder check answer 400 on which field (shared/domain/sources/check-source-access.ts).
const FOLDER_CHECK = [
  'The folder is listed first (one PROPFIND, `Depth: 1`) with the credentials, and nothing is saved unless that',
  'works: otherwise 400 on `password` when the server refuses the account (401), or on `url` when it cannot be',
  'reached or does not answer in time, refuses access (403), does not exist, is a file, does not answer as WebDAV,',
  'resolves to a private, loopback or link-local address (unless the deployment allows private networks), lists',
  'more than a source may hold in one folder (50,000 entries or 32 MiB), or serves HTTPS with a certificate the',
  'deployment does not trust (self-signed, an unknown authority, expired, or for another name); `details.reason`',
  'says which. Nothing, credentials included, is sent over a connection whose certificate failed.',
].join(' ');

const FOLDER_REFUSED = {
  code: 'VALIDATION_ERROR',
  when: 'the folder cannot be read with the credentials (400 on `url` or `password`, `details.reason` says why)',
} as const;

export const sourcesDocs: GroupDocs<typeof routes> = {
  listSources: {
    summary: "List the workspace's sources",
    description: [
      "The workspace's sources, oldest first, each with the exact number of its documents. Not paginated.",
      '',
      "Beyond P's fields a source carries `username`, `enabled`, `status_reason`, `sync_interval`, `recursive`,",
      '`file_patterns`, `created_at` and `updated_at`; never the password. `status` is `syncing` while a sync runs,',
      'else `error` when the last sync failed as a whole (the folder is gone, the password changed: `status_reason`',
      'says why), else `disabled` when `enabled` is false (no scheduled syncs; `next_sync` is then null), else',
      '`active`. `last_sync` is null until a first sync has ended.',
    ].join('\n'),
    responses: { 200: { description: 'The sources.', schema: SourceList, example: { sources: [source] } } },
  },
  createSource: {
    summary: 'Add a WebDAV source',
    description: [
      '`sync_interval` defaults to 3600 s (60 s to a week), `recursive` to `true`, `file_patterns` to `[]` (every',
      'file) and `enabled` to `true`. A URL with credentials in it is 400 on `url`: give `username` and `password`.',
      'The URL is stored ending in `/`; the password is stored sealed and never returned.',
      '',
      FOLDER_CHECK,
      '',
      'The first sync starts at once, even for a disabled source, so the answer normally shows `status: syncing`;',
      'its creator gets a notification when it ends (unless their settings turn notifications off).',
      '',
      '**File patterns.** A pattern without `/` matches a file\'s name in any directory (`*.pdf`), one with `/` its',
      'path from the source\'s root (`scans/**/*.tif`). `*` and `?` stay within a path segment, `**` spans segments;',
      '`[abc]`, `[a-z]`, `[!x]`, `{a,b}` (nested too) and `\\` (the next character is literal); case-insensitive. A',
      'pattern is 400 on `file_patterns.<i>` beyond 200 characters, 16 wildcards (`*`, `**`, `?`), `{}` nested 3 deep',
      'or 32 `{}` alternatives in all.',
    ].join('\n'),
    requestExample: {
      name: 'Office NAS',
      type: 'webdav',
      url: 'https://nas.example.com/remote.php/dav/files/scanner/Scans',
      username: 'scanner',
      password: 'correct horse battery staple',
      sync_interval: 3600,
      file_patterns: ['*.pdf', '2026/**/*.tif'],
    },
    responses: {
      201: {
        description: 'The source created, its first sync queued.',
        schema: Source,
        example: {
          ...source,
          status: 'syncing',
          last_sync: null,
          next_sync: '2026-10-01T08:00:00.000Z',
          document_count: 0,
        },
      },
    },
    errors: [FOLDER_REFUSED],
  },
  updateSource: {
    summary: 'Change a source',
    description: [
      'Changes the fields given (at least one); `type`, if given, must be `webdav`, the only type. A change that',
      'gives `url`, `username` or `password` checks the folder again, with the stored password when none is given,',
      'and clears the source\'s `error`. ' + FOLDER_CHECK,
      '',
      'Another URL or account, other `file_patterns`, or turning `recursive` on makes the next sync compare every',
      'file rather than trust unchanged directories. A new `sync_interval` moves `next_sync` to that long after the',
      'last sync (now, if none). A sync running meanwhile keeps the settings it started with. `file_patterns` are',
      'written as on create (see `POST /api/sources`).',
    ].join('\n'),
    requestExample: { sync_interval: 900, file_patterns: ['*.pdf'] },
    responses: {
      200: {
        description: 'The source as changed.',
        schema: Source,
        example: {
          ...source,
          sync_interval: 900,
          next_sync: '2026-11-02T09:15:00.000Z',
          file_patterns: ['*.pdf'],
          updated_at: '2026-11-02T09:05:00.000Z',
        },
      },
    },
    errors: [FOLDER_REFUSED],
  },
  deleteSource: {
    summary: 'Delete a source',
    description:
      'Deletes the source, its sync history and what its syncs remembered of the folder. Its documents stay in the workspace and keep their `source_id`. A sync running meanwhile stops at its next file.',
    responses: { 204: { description: 'Deleted.' } },
  },
  syncSource: {
    summary: 'Start a sync of a source',
    description: [
      'Queues a sync now, disabled source or not; the answer comes before it runs. A source runs one sync at a time,',
      'scheduled or started here. Follow it with `GET /api/sources/{id}/sync-status` or the `sync_progress`',
      'WebSocket event; the caller gets a notification (`source_sync_completed` or `source_sync_failed`) when it',
      'ends, unless their settings turn notifications off.',
    ].join('\n'),
    responses: {
      202: { description: 'The sync, queued.', schema: SyncStarted, example: { message: 'Sync started', job_id: jobId } },
    },
    errors: [
      {
        code: 'DUPLICATE_RESOURCE',
        when: 'a sync of the source runs already: `details.reason` is `sync_running` and `details.job_id` names the running sync',
      },
    ],
  },
  getSyncStatus: {
    summary: "A source's sync status",
    description: [
      'The running sync of the source, else its last one. `processed` and `total` are the files considered and',
      'found so far. The counts say what became of each file considered: `new` (a new document), `changed` (replaced',
      'its document\'s file; OCR runs again), `unchanged` (not downloaded), `skipped` (empty, of an unsupported type,',
      'over 500 MB or with a path too long), `duplicates` (the bytes of a document already in the workspace: not stored twice), `failed`',
      '(could not be read; tried again on the next sync). `errors` holds the first 50 `{path, reason}`; `failure`',
      'says why a failed sync failed as a whole.',
    ].join('\n'),
    responses: {
      200: {
        description: 'The running or last sync.',
        schema: SyncStatus,
        example: {
          job_id: jobId,
          source_id: sourceId,
          state: 'running',
          processed: 120,
          total: 310,
          current_file: '2026/11/invoice-0042.pdf',
          queued_at: '2026-11-02T09:00:00.000Z',
          started_at: '2026-11-02T09:00:01.000Z',
          finished_at: null,
          new: 12,
          changed: 1,
          unchanged: 104,
          skipped: 2,
          duplicates: 1,
          failed: 0,
          errors: [
            { path: '2026/11/notes.txt', reason: 'the content is not a supported document type' },
            { path: '2026/11/empty.pdf', reason: 'the file is empty (0 bytes)' },
            { path: '2026/11/invoice-0041-copy.pdf', reason: 'same content as document 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d' },
          ],
          failure: null,
        },
      },
    },
    errors: [{ code: 'NOT_FOUND', when: 'the source has never synced (`details.resource` is `Sync`)' }],
  },
};
