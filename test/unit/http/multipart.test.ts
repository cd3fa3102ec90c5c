import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/domain/errors';
import { parseMultipart } from '../../../shared/http/multipart';
import { httpEvent } from '../../support/http-events';
import { CLOUD_MULTIPART_MAX_BYTES } from '../../../shared/manifest';

const LIMITS = { maxFiles: 1, fileFields: ['file'], textFields: ['title'] };

const multipartEvent = (body: string) =>
  httpEvent('POST /api/documents/upload', {
    rawBody: Buffer.from(body, 'latin1').toString('base64'),
    headers: { 'content-type': 'multipart/form-data; boundary=BND' },
  });

const filePart = '--BND\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4 hello\r\n';

/** Lets the streams' deferred 'error' events fire: an unheard one would fail the test run as an uncaught error. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('parseMultipart', () => {
  it('reads a file part of a complete body', async () => {
    // Arrange
    const event = { ...multipartEvent(`${filePart}--BND--\r\n`), isBase64Encoded: true };

    // Act
    const body = await parseMultipart(event, LIMITS);

    // Assert
    expect(body.files).toHaveLength(1);
    expect(Buffer.from(body.files[0]!.bytes).toString('latin1')).toBe('%PDF-1.4 hello');
  });

  it.each([
    ['as raw UTF-8 bytes, as browsers send it', `filename="${Buffer.from('Résumé 📄.pdf', 'utf8').toString('latin1')}"`],
    ['as an RFC 5987 filename*', `filename*=UTF-8''R%C3%A9sum%C3%A9%20%F0%9F%93%84.pdf`],
  ])('reads a UTF-8 filename given %s', async (_how, filenameParameter) => {
    // Arrange
    const part = `--BND\r\nContent-Disposition: form-data; name="file"; ${filenameParameter}\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\r\n`;
    const event = { ...multipartEvent(`${part}--BND--\r\n`), isBase64Encoded: true };

    // Act
    const body = await parseMultipart(event, LIMITS);

    // Assert
    expect(body.files.map((file) => file.filename)).toEqual(['Résumé 📄.pdf']);
  });

  it('refuses a body that ends before its closing boundary with a validation error, and nothing escapes', async () => {
    // Arrange
    const event = { ...multipartEvent(filePart), isBase64Encoded: true };

    // Act
    const outcome = await parseMultipart(event, LIMITS).catch((error: unknown) => error);
    await settle();

    // Assert
    expect(outcome).toBeInstanceOf(AppError);
    expect((outcome as AppError).code).toBe('VALIDATION_ERROR');
    expect((outcome as AppError).details).toMatchObject({ field: 'body', reason: 'is not valid multipart/form-data' });
  });

  it('refuses a body cut inside the part headers', async () => {
    // Arrange
    const event = { ...multipartEvent('--BND\r\nContent-Disposition: form-data; name="fi'), isBase64Encoded: true };

    // Act
    const outcome = await parseMultipart(event, LIMITS).catch((error: unknown) => error);
    await settle();

    // Assert
    expect((outcome as AppError).code).toBe('VALIDATION_ERROR');
  });
});

const MIB = 1024 * 1024;
/** Lambda's limit on a synchronous invocation's request payload. */
const LAMBDA_PAYLOAD_BYTES = 6 * MIB;
const BODY = '--BND\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4 hello\r\n--BND--\r\n';

/** A multipart event as the HTTP API sends it (base64), declaring `contentLength` bytes. */
const declaredMultipartEvent = (body: string, contentLength: number) => ({
  ...httpEvent('POST /api/documents/upload', {
    rawBody: Buffer.from(body, 'latin1').toString('base64'),
    headers: { 'content-type': 'multipart/form-data; boundary=BND', 'content-length': String(contentLength) },
  }),
  isBase64Encoded: true,
});

const refusal = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error as AppError);

describe('multipart request size', () => {
  it('keeps the cloud limit small enough that a body of it, base64-encoded, leaves Lambda\'s 6 MB half a MiB for the event', () => {
    const encoded = Math.ceil(CLOUD_MULTIPART_MAX_BYTES / 3) * 4;

    expect(LAMBDA_PAYLOAD_BYTES - encoded).toBeGreaterThan(MIB / 2);
  });

  it('refuses a body declared above the cloud limit with 413 pointing to the presigned upload, before reading it', async () => {
    const error = await refusal(parseMultipart(declaredMultipartEvent(BODY, CLOUD_MULTIPART_MAX_BYTES + 1), LIMITS));

    expect(error).toBeInstanceOf(AppError);
    expect(error?.code).toBe('PAYLOAD_TOO_LARGE');
    expect(error?.details).toEqual({
      limit_bytes: CLOUD_MULTIPART_MAX_BYTES,
      received_bytes: CLOUD_MULTIPART_MAX_BYTES + 1,
      use: 'POST /api/documents/upload-url',
    });
  });

  it('refuses a body above the limit that declares a smaller length, by what arrived', async () => {
    const error = await refusal(parseMultipart(declaredMultipartEvent(BODY, 10), { ...LIMITS, maxBytes: 64 }));

    expect(error?.code).toBe('PAYLOAD_TOO_LARGE');
    expect(error?.details).toMatchObject({ limit_bytes: 64, received_bytes: Buffer.byteLength(BODY, 'latin1') });
  });

  it('reads a body above the cloud limit when the runtime allows more', async () => {
    const form = await parseMultipart(declaredMultipartEvent(BODY, 5 * MIB), { ...LIMITS, maxBytes: 100 * MIB });

    expect(form.files.map((file) => file.filename)).toEqual(['a.pdf']);
  });
});
