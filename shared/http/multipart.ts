import type { BusboyInstance } from '@fastify/busboy';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { AppError, validationError } from '../domain/errors';
import { CLOUD_MULTIPART_MAX_BYTES, PRESIGNED_UPLOAD_ROUTE } from '../manifest';
import { header } from './request';

export interface UploadedFile {
  field: string;
  filename: string;
  bytes: Uint8Array;
}

export interface MultipartBody {
  fields: Record<string, string>;
  files: UploadedFile[];
}

export interface MultipartLimits {
  /** More files than this is refused, naming the limit. */
  maxFiles: number;
  /** The form fields a route knows; any other field is refused by name. */
  fileFields: string[];
  textFields: string[];
  /** A larger body is 413 pointing to the presigned upload. @default CLOUD_MULTIPART_MAX_BYTES */
  maxBytes?: number;
}

/** The P 413 of a multipart body above `limit`: it names the presigned upload as the way to send the file. */
export const multipartTooLarge = (limit: number, received: number): AppError =>
  new AppError(
    'PAYLOAD_TOO_LARGE',
    `This upload is too large for a multipart request: use ${PRESIGNED_UPLOAD_ROUTE} to upload it directly to storage`,
    { limit_bytes: limit, received_bytes: received, use: PRESIGNED_UPLOAD_ROUTE },
  );

/**
 * Reads a multipart/form-data body into fields and files. Unknown fields, repeated text fields and more files
 * than allowed are 400 with details; a body above the limit is 413 pointing to the presigned upload.
 */
export async function parseMultipart(event: APIGatewayProxyEventV2, limits: MultipartLimits): Promise<MultipartBody> {
  const contentType = header(event, 'content-type') ?? '';
  if (!/^multipart\/form-data;/i.test(contentType)) {
    throw validationError('The body must be sent as multipart/form-data', [
      { field: 'content-type', reason: `must be multipart/form-data, got ${contentType || 'none'}` },
    ]);
  }
  const maxBytes = limits.maxBytes ?? CLOUD_MULTIPART_MAX_BYTES;
  // Up front, by the declared length, before the body is decoded into memory.
  const declared = Number(header(event, 'content-length') ?? 0);
  if (declared > maxBytes) throw multipartTooLarge(maxBytes, declared);
  const body = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
  if (body.length > maxBytes) throw multipartTooLarge(maxBytes, body.length);
  // Loaded by the routes that take files, not at every cold start of the function that serves them.
  const { default: Busboy } = await import('@fastify/busboy');
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    const files: UploadedFile[] = [];
    const problems: { field: string; reason: string }[] = [];
    let parser: BusboyInstance;
    try {
      // Filenames are read as UTF-8 (browsers send them raw in the part headers) unless `filename*` names a charset.
      parser = new Busboy({ headers: { 'content-type': contentType }, limits: { files: limits.maxFiles + 1, fields: 50, fieldSize: 64 * 1024 } });
    } catch {
      reject(validationError('The multipart body is malformed', [{ field: 'content-type', reason: 'has no boundary' }]));
      return;
    }
    parser.on('file', (field, stream, filename) => {
      const chunks: Buffer[] = [];
      // A body cut short errors the part's stream as well as the parser; unheard, that 'error' ends the process.
      // The parser's own 'error' below is the one that answers.
      stream.on('error', () => undefined);
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (!limits.fileFields.includes(field)) problems.push({ field, reason: 'is not a known file field' });
        // Undefined, whatever the typings say, for an application/octet-stream part that names no file.
        else files.push({ field, filename: filename ?? '', bytes: Buffer.concat(chunks) });
      });
    });
    parser.on('field', (field, value) => {
      if (!limits.textFields.includes(field)) problems.push({ field, reason: 'is not a known field' });
      else if (field in fields) problems.push({ field, reason: 'is given more than once' });
      else fields[field] = value;
    });
    parser.on('filesLimit', () => problems.push({ field: 'files', reason: `at most ${limits.maxFiles} files per request` }));
    parser.on('error', () => reject(validationError('The multipart body is malformed', [{ field: 'body', reason: 'is not valid multipart/form-data' }])));
    // After every part's stream has ended, so every file above is in `files`.
    parser.on('finish', () => {
      if (files.length > limits.maxFiles && !problems.some((p) => p.field === 'files')) {
        problems.push({ field: 'files', reason: `at most ${limits.maxFiles} files per request` });
      }
      if (problems.length) reject(validationError('The upload is not valid', problems));
      else resolve({ fields, files });
    });
    parser.end(body);
  });
}
