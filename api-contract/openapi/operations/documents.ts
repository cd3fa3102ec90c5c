import type { routes } from '../../../functions/documents/schemas';
import type { GroupDocs } from '../operation-docs';
import { BulkUploadResult, Document, DocumentPage, DocumentSummary, UploadResult, UploadUrlGrant } from '../shapes/documents';

const documentId = '3f2a9c4e-8b1d-4e6f-9a0b-1c2d3e4f5a6b';
const labelId = '6f1c2b1e-3a4d-4e5f-8a9b-0c1d2e3f4a5b';

const summary = {
  id: documentId,
  title: 'Invoice 2026-004711',
  filename: 'invoice-2026-004711.pdf',
  mime_type: 'application/pdf',
  size: 184_320,
  sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  status: 'completed',
  language: 'eng',
  ocr_confidence: 0.94,
  labels: [labelId],
  metadata: { vendor: 'ACME GmbH', amount: 1249.5, paid: false },
  source_id: null,
  created_at: '2026-11-02T09:31:12.345Z',
  updated_at: '2026-11-02T09:31:14.020Z',
};

const pagination = { page: 1, per_page: 20, total: 1, total_pages: 1, has_next: false, has_prev: false };

const uploadResult = { id: documentId, message: 'Document uploaded; OCR queued', ocr_queued: true };

const labelsChecked =
  'Label ids must name labels of the workspace: unknown ones are 400 listing them in `details.unknown_label_ids`.';

const languageChecked =
  '`language` (Tesseract codes, alone or joined with `+`, e.g. `eng+deu`) defaults to the uploader\'s `ocr_default_language` setting (`eng` unless changed); with OCR on it must be available to the OCR engine, else 400 on `language`.';

export const documentsDocs: GroupDocs<typeof routes> = {
  uploadDocument: {
    summary: 'Upload a document',
    description: [
      'Stores one file (`multipart/form-data`) as a new document. Fields: `file`, and optionally `title` (default: the filename without its extension), `labels` (comma-separated label ids), `ocr_enabled` (`true`/`false`, default `true`) and `language`. Any other field is 400 naming it.',
      '',
      '- The type comes from the bytes, never the name: PDF, PNG, JPEG, TIFF and WebP are accepted; anything else (an .exe renamed .pdf) is 400 on `file`, as is an empty file.',
      `- ${labelsChecked}`,
      `- ${languageChecked}`,
      '- The filename keeps only its last path segment, without C0/C1 controls or bidirectional formatting (U+202A-U+202E, U+2066-U+2069, LRM, RLM, ALM: an RLO would make `invoice\\u202Efdp.png` read as a PDF) and without leading dots, cut to 255 UTF-8 bytes between two graphemes (never inside a character), keeping an extension of up to 16 bytes. The title is stored without the same characters (a title of nothing else falls back to the default). The file\'s bytes are never changed.',
      '- The file is written before the record and removed again if the record cannot be written: a failed upload leaves nothing behind.',
      '- With OCR the document starts `pending` and its job goes on the OCR queue (`ocr_queued: true`; `false` when the queue could not be reached: the job stays queued and the stuck-job sweep sends it again); without OCR the document is `completed` at once.',
      '- A body above the multipart limit (4 MiB in the cloud, `MAX_REQUEST_SIZE_MB` locally) is 413 with `details.use = "POST /api/documents/upload-url"`: send such files through the presigned upload.',
    ].join('\n'),
    responses: { 201: { description: 'The document created.', schema: UploadResult, example: uploadResult } },
    errors: [
      {
        code: 'VALIDATION_ERROR',
        when: 'the file is missing, empty or not of an accepted type (`details.field` is `file`), a label id names no label of the workspace (`details.unknown_label_ids`), or `language` is not available to the OCR engine',
      },
      { code: 'PAYLOAD_TOO_LARGE', when: 'the body is above the multipart limit; `details.use` names `POST /api/documents/upload-url`' },
    ],
  },
  requestUploadUrl: {
    summary: 'Announce a large upload and get a URL to send it to',
    description: [
      'For files up to 500 MB, which a multipart request cannot carry (its body is at most 4 MiB in the cloud). Three steps:',
      '1. Announce the file with its exact `size` in bytes (1..524288000: 0, or more than 500 MB, is 400 on `size`), and optionally `title`, `labels`, `ocr_enabled` and `language` as for an upload. Labels and the language are checked now. The answer gives the id the document will have and the URL to send the file to.',
      '2. `PUT` the raw bytes to `upload_url`, before `expires_at` (one hour), with no `Authorization` header (the URL is signed) and the headers in `headers` (none today beyond the `Content-Length` every client sends). The URL takes exactly the announced size: S3 refuses any other before a byte is stored. One PUT carries the whole file.',
      '3. The stored file is checked as a multipart upload is (exactly the announced size, type from the bytes, SHA-256) and only then becomes the document `document_id`, with OCR queued. Poll `GET /api/documents/{document_id}`: until then it is 404 with `details.upload = {state: "awaiting_file", expires_at}`; a refused file is deleted and the 404 says `details.upload = {state: "rejected", reason}`. Labels deleted in between are dropped.',
      '',
      'Announcements are forgotten a day after their URL expired; staged files never ingested expire after two days. Locally the URL points at the S3 emulator on loopback, whose events go through the same ingest queue and handler.',
      '',
      '```sh',
      'grant=$(curl -s -X POST $API/api/documents/upload-url -H "authorization: Bearer $TOKEN" \\',
      '  -H \'content-type: application/json\' -d "{\\"filename\\":\\"big.pdf\\",\\"size\\":$(stat -c%s big.pdf)}")',
      'curl -s -X PUT --upload-file big.pdf "$(echo "$grant" | jq -r .upload_url)"',
      '```',
    ].join('\n'),
    requestExample: { filename: 'scans-2026.pdf', size: 48_234_496, title: 'Scans 2026', labels: [labelId] },
    responses: {
      201: {
        description: 'The upload announced: where to PUT the file.',
        schema: UploadUrlGrant,
        example: {
          document_id: documentId,
          upload_url: `https://docservice-files.s3.eu-central-1.amazonaws.com/uploads/00000000-0000-4000-8000-000000000000/${documentId}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=3600&X-Amz-Signature=5d41402abc4b2a76b9719d911017c592`,
          method: 'PUT',
          headers: {},
          max_size: 524_288_000,
          expires_at: '2026-11-02T10:31:12.345Z',
        },
      },
    },
    errors: [
      {
        code: 'VALIDATION_ERROR',
        when: 'a label id names no label of the workspace (`details.unknown_label_ids`), or `language` is not available to the OCR engine',
      },
    ],
  },
  bulkUploadDocuments: {
    summary: 'Upload several documents at once',
    description: [
      'Fields: `files` (1 to 10 files; `files[]` is accepted too; more than 10 is 400 before anything is stored), and optionally `default_labels` (comma-separated label ids, given to every file), `ocr_enabled` and `language`, as for a single upload. Titles are the filenames without their extension.',
      '',
      'Each file is stored as a single upload would store it, one after the other. A file refused (empty, of a type not accepted, an unknown label in `default_labels`, a language not available) is listed `failed` with the error a single upload would have answered, and the others are still stored: the answer is 201 even when every file failed.',
    ].join('\n'),
    responses: {
      201: {
        description: 'Each file\'s outcome.',
        schema: BulkUploadResult,
        example: {
          uploaded: 1,
          failed: 1,
          documents: [
            { filename: 'invoice-2026-004711.pdf', status: 'uploaded', ...uploadResult },
            {
              filename: 'setup.exe',
              status: 'failed',
              error: {
                code: 'VALIDATION_ERROR',
                message: 'This file type is not supported',
                details: {
                  field: 'file',
                  reason: 'content is not one of application/pdf, image/png, image/jpeg, image/tiff, image/webp',
                },
              },
            },
          ],
        },
      },
    },
    errors: [{ code: 'PAYLOAD_TOO_LARGE', when: 'the body is above the multipart limit; `details.use` names `POST /api/documents/upload-url`' }],
  },
  listDocuments: {
    summary: "List the workspace's documents",
    description: [
      'One page of documents, without their text (rows carry everything but `content`). Sorted by `sort` (`created_at` by default, `updated_at`, `title`, `size`, `filename`; ties broken by id) in `order` (default `desc`). Filters: `status`, `source_id`, `label_ids` (comma-separated: documents carrying all of them), `date_from`/`date_to` (ISO 8601 bounds on `created_at`, inclusive; a bare date as `date_to` means the end of that day).',
      '',
      "The default listing (newest or oldest first, nothing filtered) reads the table only as far as the page, with `total` from a counter: its first page is never behind and its cost does not grow with the number of documents. Locally every other filter and sort, and every later page, is served by the search index (it finds the page's ids and the total; the records then come from the table), so it shows a change a moment after the request that made it. `source_id`, and every filter or sort in the cloud, read the table instead (`label_ids` through the labels' memberships, the others by reading every document row, not its text, and sorting in memory): correct, but slower as the count grows, until the cloud's search index serves listings too. The index follows every status change of a document (upload, OCR start, retry, cancel, completion, failure).",
    ].join('\n'),
    responses: { 200: { description: 'The page of documents.', schema: DocumentPage, example: { data: [summary], pagination } } },
  },
  getDocument: {
    summary: 'Read a document',
    description:
      'The document with its extracted text as `content` (`""` until OCR has read it). Always read from the table, so never behind a change. For the id of a presigned upload not yet ingested, the 404 says what happened to the file (see `POST /api/documents/upload-url`).',
    responses: {
      200: {
        description: 'The document.',
        schema: Document,
        example: { ...summary, content: 'INVOICE 2026-004711\nACME GmbH\nTotal due: 1,249.50 EUR', pages_ocred_by_engine: { text_layer: 1 } },
      },
    },
    errors: [
      {
        code: 'NOT_FOUND',
        when: 'the id is that of a presigned upload whose file has not been ingested: `details.upload` is `{state: "awaiting_file", expires_at}`, or `{state: "rejected", reason}` when the file was refused',
      },
    ],
  },
  updateDocument: {
    summary: 'Edit a document',
    description: [
      'Give at least one of:',
      '- `title`: stored without C0/C1 controls or bidirectional formatting (a title of nothing else is 400 on `title`);',
      `- \`labels\`: replaces the document's labels (at most 20, duplicates dropped). ${labelsChecked}`,
      '- `metadata`: replaces the document\'s metadata; flat (string, number, boolean or null values), at most 50 keys and 8 KB as JSON.',
      '',
      'Answers with the document, without its text.',
    ].join('\n'),
    requestExample: { title: 'Invoice 2026-004711 (paid)', metadata: { vendor: 'ACME GmbH', amount: 1249.5, paid: true } },
    responses: {
      200: {
        description: 'The document as changed, without its text.',
        schema: DocumentSummary,
        example: {
          ...summary,
          title: 'Invoice 2026-004711 (paid)',
          metadata: { vendor: 'ACME GmbH', amount: 1249.5, paid: true },
          updated_at: '2026-11-03T08:00:00.000Z',
        },
      },
    },
    errors: [
      {
        code: 'VALIDATION_ERROR',
        when: 'a label id names no label of the workspace (`details.unknown_label_ids`), or the title holds only control or formatting characters',
      },
    ],
  },
  deleteDocument: {
    summary: 'Delete a document',
    description: 'Removes the document, its text, its OCR job, its place in its labels\' counts and its files (the original and every thumbnail).',
    responses: { 204: { description: 'Deleted.' } },
  },
  downloadDocument: {
    summary: "Download a document's file",
    description:
      "The original bytes, unchanged, with the type detected at upload as `Content-Type` (`application/pdf`, `image/png`, `image/jpeg`, `image/tiff` or `image/webp`). Files above 4 MiB answer 302 to a presigned URL valid 5 minutes instead, which serves the same `Content-Type` and `Content-Disposition`: a Lambda answer holds at most 6 MB. `Content-Disposition` is built so that no stored name can break it.",
    responses: {
      200: {
        description: 'The file.',
        binary: true,
        contentType: '*/*',
        headers: {
          'Content-Disposition': "`attachment; filename=\"<ASCII fallback>\"; filename*=UTF-8''<the exact name, percent-encoded>`",
          'X-Content-Type-Options': '`nosniff`.',
        },
      },
      302: { description: 'The file is above 4 MiB: fetch it from the presigned URL.', headers: { Location: 'The presigned URL of the file, valid 5 minutes.' } },
    },
  },
  downloadSearchablePdf: {
    summary: "Download a document's searchable PDF",
    description: [
      "A PDF of the document's original pages with an invisible text layer (text rendering mode 3) at each word OCR read, so that any PDF viewer can search, select and copy the text: the OCRmyPDF output. Written by the OCR worker after a run completes, for documents with OCRed pages (images, scanned or mixed PDFs), and stored beside the original (its bytes count in the workspace's `bytes_stored`). Pages that kept their text layer are copied as they are; image files become pages from their own image data (a JPEG, a Group 4 TIFF and most PNGs embedded unchanged); a page with a `/Rotate` keeps it, with its text aligned to what it shows. A retried OCR run or a file replaced by a source sync writes a new one; deleting the document deletes it.",
      '',
      'Above 4 MiB the answer is 302 to a presigned URL valid 5 minutes, as for `GET /api/documents/{id}/download`.',
    ].join('\n'),
    responses: {
      200: {
        description: 'The searchable PDF.',
        binary: true,
        contentType: 'application/pdf',
        headers: {
          'Content-Disposition': "`attachment; filename=\"<name>.searchable.pdf\"` (built so that no stored name can break it)",
          'X-Content-Type-Options': '`nosniff`.',
        },
      },
      302: { description: 'The PDF is above 4 MiB: fetch it from the presigned URL.', headers: { Location: 'The presigned URL of the PDF, valid 5 minutes.' } },
    },
    errors: [
      {
        code: 'NOT_FOUND',
        when: 'the document does not exist, or it has no searchable PDF (yet): `details.reason` says why: `ocr_disabled`, `ocr_not_completed`, `ocr_failed`, `no_ocred_pages` (every page kept its text layer or was blank), `no_word_positions`, `not_written` (the file could not be written within bounds; `message` says why, and the document stays `completed`) or `not_written_yet` (written right after the run completes; a document read before searchable PDFs existed gets one when OCR is retried)',
      },
    ],
  },
  getDocumentThumbnail: {
    summary: "A thumbnail of a document's first page",
    description: [
      'A PNG of the first page that fits `width` x `height` (16..1024, default 200), aspect kept: PDF pages are scaled to the box, images only ever shrunk. Rendered once per size, then served from storage.',
      '',
      'Rendering (pdf.js drawing onto Skia; PNG, JPEG and WebP decoded by the canvas, TIFF by UTIF.js) is identical in the cloud and locally, and runs in the bounded imaging pool of worker processes, never in the process answering requests; renders of one document run one at a time. Sizes are read from the headers first, so a decompression bomb is refused in milliseconds; a file above 50 MiB, an image above 100 megapixels, a page whose content inflates beyond 32 MiB, or a render past 8 s is refused. A file that cannot be rendered (corrupt, hostile, beyond a bound: its own fault) is 400 on `file`, and is then refused at once for every size (a marker is kept beside its thumbnails). A render that cannot start because the pool is busy (its queue full, or waited 10 s) is 503 with `Retry-After`: the server\'s fault, worth retrying.',
    ].join('\n'),
    responses: {
      200: {
        description: 'The thumbnail.',
        binary: true,
        contentType: 'image/png',
        headers: { 'Cache-Control': '`private, max-age=3600`.' },
      },
    },
    errors: [
      { code: 'VALIDATION_ERROR', when: 'the file cannot be rendered (corrupt, hostile, beyond a render bound): `details.field` is `file`' },
      { code: 'SERVICE_UNAVAILABLE', when: 'the imaging pool is busy (its queue full, or no worker freed up within 10 s): `details.retry_after_seconds` and `Retry-After` say when to try again' },
    ],
  },
};
