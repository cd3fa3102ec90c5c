import * as z from 'zod';
import { DOCUMENT_STATUSES, MAX_DOCUMENT_BYTES } from '../../shared/domain/documents/document';
import { DOCUMENT_SORT_FIELDS } from '../../shared/domain/documents/ports';
import { booleanField, isoDateBound, ocrLanguageField, pageQuery, storableNumber } from '../../shared/http/fields';

export const MAX_LABELS_PER_DOCUMENT = 20;
export const MAX_BULK_FILES = 10;

export const documentIdParams = z.strictObject({ id: z.uuid('must be a document id (UUID)') });

const labelIds = z.array(z.uuid('must be a label id (UUID)')).max(MAX_LABELS_PER_DOCUMENT);

/** Comma-separated ids, as multipart fields and query strings carry them. */
const commaSeparatedLabelIds = z
  .string()
  .transform((value) => value.split(',').map((id) => id.trim()).filter(Boolean))
  .pipe(labelIds);

export const listDocumentsQuery = pageQuery.extend({
  sort: z.enum(DOCUMENT_SORT_FIELDS).default('created_at'),
  order: z.enum(['asc', 'desc']).default('desc'),
  status: z.enum(DOCUMENT_STATUSES).optional(),
  source_id: z.uuid().optional(),
  label_ids: commaSeparatedLabelIds.optional(),
  date_from: isoDateBound(false).optional(),
  date_to: isoDateBound(true).optional(),
});

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
    z.union([z.string().max(1000), storableNumber, z.boolean(), z.null()], 'must be a string, number, boolean or null: metadata is flat'),
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
