import * as z from '../../../shared/zod';
import { DOCUMENT_STATUSES } from '../../../shared/domain/documents/document';
import { SUPPORTED_MIME_TYPES } from '../../../shared/domain/documents/file-type';
import { ERROR_CODES, pageOf } from './common';
import { id, shape, timestamp } from './registry';

// The fields of shared/domain/documents/document.ts `toSummary`, which every document answer goes through.
const documentFields = {
  id: id(),
  title: z.string(),
  filename: z.string(),
  // Detected from the file's first bytes at upload, never taken from the name or the client.
  mime_type: z.enum(SUPPORTED_MIME_TYPES),
  size: z.int().check(z.gte(0)),
  sha256: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
  status: z.enum(DOCUMENT_STATUSES),
  language: z.string(),
  // Null until an OCR run completes: a document that was never read has no confidence, not a zero one.
  ocr_confidence: z.nullable(z.number().check(z.gte(0), z.lte(1))),
  labels: z.array(id()),
  metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  source_id: z.nullable(id()),
  created_at: timestamp(),
  updated_at: timestamp(),
  // Present only while the status is `failed`.
  failure_reason: z.optional(z.nullable(z.string())),
};

/** A document without its extracted text: a list row, and the answer to an edit. */
export const DocumentSummary = shape(
  'DocumentSummary',
  'A document without its extracted text (`content`): the rows of a listing and the answer to an edit. `failure_reason` is present only when `status` is `failed`.',
  z.strictObject(documentFields),
);

/** A document with its extracted text. */
export const Document = shape(
  'Document',
  'A document with its extracted text. `failure_reason` is present only when `status` is `failed`. `pages_ocred_by_engine` counts the pages of the last completed OCR run by what read each one.',
  z.strictObject({
    ...documentFields,
    content: z.string(),
    pages_ocred_by_engine: z
      .nullable(z.partialRecord(z.enum(['text_layer', 'tesseract', 'textract']), z.int().check(z.gte(0))))
      .check(
        z.describe(
          "The pages of the last completed OCR run by what read each one: `text_layer` (the PDF's own text, kept page by page where it is usable), `tesseract` (local) or `textract` (cloud). A blank page is counted under none, so the counts may add up to fewer than the pages. Null until an OCR run completed (and for a document last read before the count was kept: a retry of OCR sets it).",
        ),
      ),
  }),
);

/** A page of documents. */
export const DocumentPage = shape('DocumentPage', 'One page of documents, without their text.', pageOf(DocumentSummary));

/** What a stored upload answers. */
export const UploadResult = shape(
  'UploadResult',
  'The document created from an upload, and whether its OCR job went on the queue.',
  z.strictObject({ id: id(), message: z.string(), ocr_queued: z.boolean() }),
);

/** A presigned upload announced, with where to PUT the file. */
export const UploadUrlGrant = shape(
  'UploadUrlGrant',
  'Where and how to send the file of an announced upload, and the id its document will have.',
  z.strictObject({
    document_id: id(),
    upload_url: z.url(),
    method: z.literal('PUT'),
    headers: z.record(z.string(), z.string()),
    max_size: z.int().check(z.gte(1)),
    expires_at: timestamp(),
  }),
);

/** One file of a bulk upload that became a document. */
export const BulkUploadedFile = shape(
  'BulkUploadedFile',
  'A file of a bulk upload that became a document.',
  z.strictObject({ filename: z.string(), status: z.literal('uploaded'), id: id(), message: z.string(), ocr_queued: z.boolean() }),
);

/** One file of a bulk upload that was refused. */
export const BulkFailedFile = shape(
  'BulkFailedFile',
  'A file of a bulk upload that was refused, with the error a single upload of it would have answered.',
  z.strictObject({
    filename: z.string(),
    status: z.literal('failed'),
    error: z.strictObject({ code: z.enum(ERROR_CODES), message: z.string(), details: z.record(z.string(), z.unknown()) }),
  }),
);

/** What a bulk upload did with each file. */
export const BulkUploadResult = shape(
  'BulkUploadResult',
  'How many files became documents and how many were refused, and each file\'s outcome in the order sent.',
  z.strictObject({
    uploaded: z.int().check(z.gte(0)),
    failed: z.int().check(z.gte(0)),
    documents: z.array(z.discriminatedUnion('status', [BulkUploadedFile, BulkFailedFile])),
  }),
);
