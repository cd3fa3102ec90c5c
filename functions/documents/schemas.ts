import * as z from 'zod';
import { DOCUMENT_STATUSES } from '../../shared/domain/documents/document';
import { MAX_DOCUMENT_BYTES } from '../../shared/domain/documents/large-upload';
import { DOCUMENT_SORT_FIELDS } from '../../shared/domain/documents/ports';
import { ocrLanguageField, pageQuery } from '../../shared/http/fields';

export const MAX_LABELS_PER_DOCUMENT = 20;
export const MAX_BULK_FILES = 10;

export const documentIdParams = z.strictObject({ id: z.uuid('must be a document id (UUID)') });

const labelIds = z.array(z.uuid('must be a label id (UUID)')).max(MAX_LABELS_PER_DOCUMENT);

/** Comma-separated ids, as multipart fields and query strings carry them. */
const commaSeparatedLabelIds = z
  .string()
  .transform((value) => value.split(',').map((id) => id.trim()).filter(Boolean))
  .pipe(labelIds);

/** An ISO 8601 date or date-time; a bare date as `to` means the end of that day. */
const isoBound = (end: boolean) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/, 'must be an ISO 8601 date or date-time')
    .refine((value) => !Number.isNaN(Date.parse(value)), 'is not a real date')
    .transform((value) => {
      const date = new Date(value);
      if (end && value.length === 10) date.setUTCHours(23, 59, 59, 999);
      return date.toISOString();
    });

export const listDocumentsQuery = pageQuery.extend({
  sort: z.enum(DOCUMENT_SORT_FIELDS).default('created_at'),
  order: z.enum(['asc', 'desc']).default('desc'),
  status: z.enum(DOCUMENT_STATUSES).optional(),
  source_id: z.uuid().optional(),
  label_ids: commaSeparatedLabelIds.optional(),
  date_from: isoBound(false).optional(),
  date_to: isoBound(true).optional(),
});

const booleanField = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

export const uploadFields = z.strictObject({
  title: z.string().trim().max(500).optional(),
  labels: commaSeparatedLabelIds.default([]),
  ocr_enabled: booleanField.default(true),
  language: ocrLanguageField.optional(),
});

export const bulkUploadFields = z.strictObject({
  default_labels: commaSeparatedLabelIds.default([]),
  ocr_enabled: booleanField.default(true),
  language: ocrLanguageField.optional(),
});

const MAX_METADATA_KEYS = 50;
const MAX_METADATA_BYTES = 8 * 1024;

/** Flat metadata: scalar values only, bounded in keys and in size. */
const metadata = z
  .record(
    z.string().min(1).max(64),
    z.union([z.string().max(1000), z.number(), z.boolean(), z.null()], 'must be a string, number, boolean or null: metadata is flat'),
  )
  .refine((value) => Object.keys(value).length <= MAX_METADATA_KEYS, `at most ${MAX_METADATA_KEYS} keys`)
  .refine((value) => JSON.stringify(value).length <= MAX_METADATA_BYTES, `at most ${MAX_METADATA_BYTES} bytes as JSON`);

export const updateDocumentBody = z
  .strictObject({ title: z.string().trim().min(1).max(500), labels: labelIds, metadata })
  .partial()
  .refine((body) => Object.keys(body).length > 0, { message: 'give at least one of title, labels, metadata' });

export const thumbnailQuery = z.strictObject({
  width: z.coerce.number().int().min(16).max(1024).default(200),
  height: z.coerce.number().int().min(16).max(1024).default(200),
});

export const uploadUrlBody = z.strictObject({
  filename: z.string().trim().min(1).max(1024),
  size: z
    .number()
    .int()
    .min(1, 'must be at least 1 byte: empty files are refused')
    .max(MAX_DOCUMENT_BYTES, `must be at most ${MAX_DOCUMENT_BYTES} bytes (500 MB)`),
  title: z.string().trim().max(500).optional(),
  labels: labelIds.default([]),
  ocr_enabled: z.boolean().default(true),
  language: ocrLanguageField.optional(),
});
