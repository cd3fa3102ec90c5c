import * as z from '../../shared/zod';
import { DOCUMENT_STATUSES, MAX_DOCUMENT_BYTES } from '../../shared/domain/documents/document';
import { DOCUMENT_SORT_FIELDS } from '../../shared/domain/documents/ports';
import { booleanField, isoDateBound, ocrLanguageField, pageFields, storableNumber } from '../../shared/http/fields';
import { contract, type RouteContracts } from '../../shared/http/route';

// Each route's schema is built when the route is first used (z.lazy): a cold start builds only its route's.

export const MAX_LABELS_PER_DOCUMENT = 20;
export const MAX_BULK_FILES = 10;

export const documentIdParams = z.lazy(() => z.strictObject({ id: z.uuid('must be a document id (UUID)') }));

const labelIds = () => z.array(z.uuid('must be a label id (UUID)')).check(z.maxLength(MAX_LABELS_PER_DOCUMENT));

/** Comma-separated ids, as multipart fields and query strings carry them. */
const commaSeparatedLabelIds = () =>
  z.pipe(
    z.pipe(
      z.string(),
      z.transform((value) =>
        value
          .split(',')
          .map((id) => id.trim())
          .filter(Boolean),
      ),
    ),
    labelIds(),
  );

export const listDocumentsQuery = z.lazy(() =>
  z.strictObject({
    ...pageFields(),
    sort: z._default(z.enum(DOCUMENT_SORT_FIELDS), 'created_at'),
    order: z._default(z.enum(['asc', 'desc']), 'desc'),
    status: z.optional(z.enum(DOCUMENT_STATUSES)),
    source_id: z.optional(z.uuid()),
    label_ids: z.optional(commaSeparatedLabelIds()),
    date_from: z.optional(isoDateBound(false)),
    date_to: z.optional(isoDateBound(true)),
  }),
);

export const uploadFields = z.lazy(() =>
  z.strictObject({
    title: z.optional(z.string().check(z.trim(), z.maxLength(500))),
    labels: z._default(commaSeparatedLabelIds(), []),
    ocr_enabled: z._default(booleanField(), true),
    language: z.optional(ocrLanguageField()),
  }),
);

export const bulkUploadFields = z.lazy(() =>
  z.strictObject({
    default_labels: z._default(commaSeparatedLabelIds(), []),
    ocr_enabled: z._default(booleanField(), true),
    language: z.optional(ocrLanguageField()),
  }),
);

const MAX_METADATA_KEYS = 50;
const MAX_METADATA_BYTES = 8 * 1024;

/** Flat metadata: scalar values only, bounded in keys and in size. */
const metadata = () =>
  z
    .record(
      z.string().check(z.minLength(1), z.maxLength(64)),
      z.union(
        [z.string().check(z.maxLength(1000)), storableNumber(), z.boolean(), z.null()],
        'must be a string, number, boolean or null: metadata is flat',
      ),
    )
    .check(
      z.refine((value) => Object.keys(value).length <= MAX_METADATA_KEYS, `at most ${MAX_METADATA_KEYS} keys`),
      z.refine(
        (value) => JSON.stringify(value).length <= MAX_METADATA_BYTES,
        `at most ${MAX_METADATA_BYTES} bytes as JSON`,
      ),
    );

export const updateDocumentBody = z.lazy(() =>
  z
    .partial(
      z.strictObject({
        title: z.string().check(z.trim(), z.minLength(1), z.maxLength(500)),
        labels: labelIds(),
        metadata: metadata(),
      }),
    )
    .check(z.refine((body) => Object.keys(body).length > 0, { message: 'give at least one of title, labels, metadata' })),
);

export const thumbnailQuery = z.lazy(() =>
  z.strictObject({
    width: z._default(z.coerce.number().check(z.int(), z.gte(16), z.lte(1024)), 200),
    height: z._default(z.coerce.number().check(z.int(), z.gte(16), z.lte(1024)), 200),
  }),
);

export const uploadUrlBody = z.lazy(() =>
  z.strictObject({
    filename: z.string().check(z.trim(), z.minLength(1), z.maxLength(1024)),
    size: z
      .number()
      .check(
        z.int(),
        z.gte(1, 'must be at least 1 byte: empty files are refused'),
        z.lte(MAX_DOCUMENT_BYTES, `must be at most ${MAX_DOCUMENT_BYTES} bytes (500 MB)`),
      ),
    title: z.optional(z.string().check(z.trim(), z.maxLength(500))),
    labels: z._default(labelIds(), []),
    ocr_enabled: z._default(z.boolean(), true),
    language: z.optional(ocrLanguageField()),
  }),
);

/**
 * The document routes' contracts, by operation id (the API contract's operationId). The two multipart routes are
 * written out rather than passed through `contract`, whose return type would widen `form` to any form: their
 * handlers read the form's fields with its schema, so they need its type (and `form` present).
 */
export const routes = {
  uploadDocument: {
    key: 'POST /api/documents/upload',
    access: 'editor',
    rateLimit: 'upload',
    form: { fields: uploadFields, fileFields: ['file'], maxFiles: 1 },
  },
  requestUploadUrl: contract({ key: 'POST /api/documents/upload-url', access: 'editor', rateLimit: 'upload', body: uploadUrlBody }),
  bulkUploadDocuments: {
    key: 'POST /api/documents/bulk-upload',
    access: 'editor',
    rateLimit: 'upload',
    // `files[]` too: the name clients that encode a list PHP-style give each file.
    form: { fields: bulkUploadFields, fileFields: ['files', 'files[]'], maxFiles: MAX_BULK_FILES },
  },
  listDocuments: contract({ key: 'GET /api/documents', access: 'viewer', query: listDocumentsQuery }),
  getDocument: contract({ key: 'GET /api/documents/{id}', access: 'viewer', params: documentIdParams }),
  updateDocument: contract({ key: 'PUT /api/documents/{id}', access: 'editor', params: documentIdParams, body: updateDocumentBody }),
  deleteDocument: contract({ key: 'DELETE /api/documents/{id}', access: 'editor', params: documentIdParams }),
  downloadDocument: contract({ key: 'GET /api/documents/{id}/download', access: 'viewer', params: documentIdParams }),
  downloadSearchablePdf: contract({ key: 'GET /api/documents/{id}/searchable-pdf', access: 'viewer', params: documentIdParams }),
  getDocumentThumbnail: contract({
    key: 'GET /api/documents/{id}/thumbnail',
    access: 'viewer',
    params: documentIdParams,
    query: thumbnailQuery,
  }),
} as const satisfies RouteContracts;
