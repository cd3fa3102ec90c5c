import type { HttpGate, RequestGate } from '../../shared/container/kit/request-gate';
import { inWorkspace, type WorkspaceScoped } from '../../shared/container/kit/workspace-scope';
import type { DocumentListingIndex, DocumentRepository, PendingUploadRepository } from '../../shared/domain/documents/ports';
import type { ThumbnailRenderer } from '../../shared/domain/documents/thumbnails';
import type { FileStore } from '../../shared/domain/files/ports';
import type { LabelRepository } from '../../shared/domain/labels/ports';
import type { BusinessMetrics } from '../../shared/domain/metrics/ports';
import type { OcrEngine, OcrJobQueue } from '../../shared/domain/ocr/ports';
import type { RuleApplyDeps, RuleRepository } from '../../shared/domain/rules/ports';
import { deleteDocument } from '../../shared/domain/documents/delete-document';
import { updateDocument } from '../../shared/domain/documents/update-document';
import { downloadDocument } from '../../shared/domain/documents/download-document';
import { downloadSearchablePdf } from '../../shared/domain/documents/searchable-pdf-download';
import { getDocument } from '../../shared/domain/documents/get-document';
import { listDocuments } from '../../shared/domain/documents/list-documents';
import { documentThumbnail } from '../../shared/domain/documents/document-thumbnail';
import { requestUploadUrl } from '../../shared/domain/documents/request-upload-url';
import { uploadDocument } from '../../shared/domain/documents/upload-document';
import { AppError, validationError } from '../../shared/domain/errors';
import { attachmentDisposition } from '../../shared/http/content-disposition';
import { parseMultipart } from '../../shared/http/multipart';
import { httpHandler } from '../../shared/http/pipeline';
import { json, noContent, type HttpResponse } from '../../shared/http/responses';
import { route } from '../../shared/http/route';
import { parseWith } from '../../shared/http/validation';
import { fieldNames } from '../../shared/zod';
import { routes } from './schemas';

const binary = (bytes: Uint8Array, headers: Record<string, string>): HttpResponse => ({
  statusCode: 200,
  headers,
  body: Buffer.from(bytes).toString('base64'),
  isBase64Encoded: true,
});

/** What the documents endpoints use. */
export type DocumentsDeps = HttpGate &
  Pick<RequestGate, 'clock' | 'settings'> &
  Pick<RuleApplyDeps, 'regex' | 'ruleLog'> & {
    metrics: BusinessMetrics;
    thumbnails: ThumbnailRenderer;
    sha256(bytes: Uint8Array): string;
    /** The OCR languages the engine reads, to refuse others at upload. */
    ocrLanguages: OcrEngine['languages'];
  } & WorkspaceScoped<{
    workspaceId: string;
    documents: DocumentRepository;
    uploads: PendingUploadRepository;
    labels: LabelRepository;
    rules: RuleRepository;
    files: FileStore;
    ocrQueue: OcrJobQueue;
    /** Serves filtered and sorted listings where the runtime has one (the local search index). */
    listingIndex?: DocumentListingIndex;
  }>;

/**
 * The P document endpoints: upload (single and bulk), list, read, edit, delete, download, searchable PDF, thumbnail.
 * `maxMultipartBytes`: the largest upload body; the default is what fits a Lambda invocation, the local runtime
 * passes its maximum request size.
 */
export const createDocumentsHandler = (c: DocumentsDeps, { maxMultipartBytes }: { maxMultipartBytes?: number } = {}) =>
  httpHandler({
    corsOrigins: c.corsOrigins,
    edge: c.edge,
    authenticate: c.authenticate,
    limits: c.limits,
    routes: [
      route({
        ...routes.uploadDocument,
        handle: async ({ event, principal }) => {
          const { fields: fieldsSchema, fileFields, maxFiles } = routes.uploadDocument.form;
          const form = await parseMultipart(event, {
            maxFiles,
            fileFields: [...fileFields],
            textFields: fieldNames(fieldsSchema),
            maxBytes: maxMultipartBytes,
          });
          const fields = parseWith(fieldsSchema, form.fields, 'body');
          const [file] = form.files;
          if (!file) throw validationError('A file is required', [{ field: 'file', reason: 'is missing' }]);
          const result = await uploadDocument(inWorkspace(c, principal), {
            filename: file.filename,
            bytes: file.bytes,
            title: fields.title,
            labels: fields.labels,
            ocrEnabled: fields.ocr_enabled,
            language: fields.language,
            createdBy: principal.userId,
          });
          return json(201, result);
        },
      }),
      route({
        ...routes.requestUploadUrl,
        handle: async ({ body, principal }) =>
          json(
            201,
            await requestUploadUrl(inWorkspace(c, principal), {
              filename: body.filename,
              size: body.size,
              title: body.title,
              labels: body.labels,
              ocrEnabled: body.ocr_enabled,
              language: body.language,
              createdBy: principal.userId,
            }),
          ),
      }),
      route({
        ...routes.bulkUploadDocuments,
        handle: async ({ event, principal }) => {
          const { fields: fieldsSchema, fileFields, maxFiles } = routes.bulkUploadDocuments.form;
          const form = await parseMultipart(event, {
            maxFiles,
            fileFields: [...fileFields],
            textFields: fieldNames(fieldsSchema),
            maxBytes: maxMultipartBytes,
          });
          const fields = parseWith(fieldsSchema, form.fields, 'body');
          if (!form.files.length) throw validationError('At least one file is required', [{ field: 'files', reason: 'is missing' }]);
          const documents = [];
          for (const file of form.files) {
            try {
              const result = await uploadDocument(inWorkspace(c, principal), {
                filename: file.filename,
                bytes: file.bytes,
                labels: fields.default_labels,
                ocrEnabled: fields.ocr_enabled,
                language: fields.language,
                createdBy: principal.userId,
              });
              documents.push({ filename: file.filename, status: 'uploaded' as const, ...result });
            } catch (error) {
              if (!(error instanceof AppError)) throw error;
              documents.push({
                filename: file.filename,
                status: 'failed' as const,
                error: { code: error.code, message: error.message, details: error.details },
              });
            }
          }
          const uploaded = documents.filter((d) => d.status === 'uploaded').length;
          return json(201, { uploaded, failed: documents.length - uploaded, documents });
        },
      }),
      route({
        ...routes.listDocuments,
        handle: async ({ query, principal }) =>
          json(
            200,
            await listDocuments(inWorkspace(c, principal), {
              page: query.page,
              perPage: query.per_page,
              sort: query.sort,
              order: query.order,
              status: query.status,
              sourceId: query.source_id,
              labelIds: query.label_ids,
              createdFrom: query.date_from,
              createdTo: query.date_to,
            }),
          ),
      }),
      route({
        ...routes.getDocument,
        handle: async ({ params, principal }) => json(200, await getDocument(inWorkspace(c, principal), params.id)),
      }),
      route({
        ...routes.updateDocument,
        handle: async ({ params, body, principal }) => json(200, await updateDocument(inWorkspace(c, principal), params.id, body)),
      }),
      route({
        ...routes.deleteDocument,
        handle: async ({ params, principal }) => {
          await deleteDocument(inWorkspace(c, principal), params.id);
          return noContent();
        },
      }),
      route({
        ...routes.downloadDocument,
        handle: async ({ params, principal }) => {
          const download = await downloadDocument(inWorkspace(c, principal), params.id);
          if (download.kind === 'redirect') return { statusCode: 302, headers: { location: download.url } };
          return binary(download.bytes, {
            'content-type': download.mimeType,
            'content-disposition': attachmentDisposition(download.filename),
            'x-content-type-options': 'nosniff',
          });
        },
      }),
      route({
        ...routes.downloadSearchablePdf,
        handle: async ({ params, principal }) => {
          const download = await downloadSearchablePdf(inWorkspace(c, principal), params.id);
          if (download.kind === 'redirect') return { statusCode: 302, headers: { location: download.url } };
          return binary(download.bytes, {
            'content-type': download.mimeType,
            'content-disposition': attachmentDisposition(download.filename),
            'x-content-type-options': 'nosniff',
          });
        },
      }),
      route({
        ...routes.getDocumentThumbnail,
        handle: async ({ params, query, principal }) => {
          const image = await documentThumbnail(inWorkspace(c, principal), params.id, { width: query.width, height: query.height });
          return binary(image.bytes, { 'content-type': image.mimeType, 'cache-control': 'private, max-age=3600' });
        },
      }),
    ],
  });
