import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/domain/errors';
import { parseMultipart } from '../../../shared/http/multipart';
import { httpEvent } from '../../support/http-events';

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
