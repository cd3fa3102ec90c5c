import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/domain/errors';
import { parseEnv } from '../../../shared/container/config';
import { CLOUD_MULTIPART_MAX_BYTES } from '../../../shared/manifest';
import { parseMultipart } from '../../../shared/http/multipart';
import { localEnvSchema } from '../../../shared/local/local-env';
import { httpEvent } from '../../support/http-events';

const MIB = 1024 * 1024;
/** Lambda's limit on a synchronous invocation's request payload. */
const LAMBDA_PAYLOAD_BYTES = 6 * MIB;
const LIMITS = { maxFiles: 1, fileFields: ['file'], textFields: ['title'] };
const BODY = '--BND\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4 hello\r\n--BND--\r\n';

/** A multipart event as the HTTP API sends it (base64), declaring `contentLength` bytes. */
const multipartEvent = (body: string, contentLength: number) => ({
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
    const error = await refusal(parseMultipart(multipartEvent(BODY, CLOUD_MULTIPART_MAX_BYTES + 1), LIMITS));

    expect(error).toBeInstanceOf(AppError);
    expect(error?.code).toBe('PAYLOAD_TOO_LARGE');
    expect(error?.details).toEqual({
      limit_bytes: CLOUD_MULTIPART_MAX_BYTES,
      received_bytes: CLOUD_MULTIPART_MAX_BYTES + 1,
      use: 'POST /api/documents/upload-url',
    });
  });

  it('refuses a body above the limit that declares a smaller length, by what arrived', async () => {
    const error = await refusal(parseMultipart(multipartEvent(BODY, 10), { ...LIMITS, maxBytes: 64 }));

    expect(error?.code).toBe('PAYLOAD_TOO_LARGE');
    expect(error?.details).toMatchObject({ limit_bytes: 64, received_bytes: Buffer.byteLength(BODY, 'latin1') });
  });

  it('reads a body above the cloud limit when the runtime allows more', async () => {
    const form = await parseMultipart(multipartEvent(BODY, 5 * MIB), { ...LIMITS, maxBytes: 100 * MIB });

    expect(form.files.map((file) => file.filename)).toEqual(['a.pdf']);
  });
});

describe('MAX_REQUEST_SIZE_MB', () => {
  it('is 100 MiB when unset, as P\'s limits table says', () => {
    expect(parseEnv(localEnvSchema, {}).MAX_REQUEST_SIZE_MB).toBe(100);
  });

  it('takes another whole number of MiB', () => {
    expect(parseEnv(localEnvSchema, { MAX_REQUEST_SIZE_MB: '250' }).MAX_REQUEST_SIZE_MB).toBe(250);
  });

  it.each(['0', '1.5', 'lots', '2048'])('stops the start naming the variable for %s', (value) => {
    expect(() => parseEnv(localEnvSchema, { MAX_REQUEST_SIZE_MB: value })).toThrow(/^Invalid configuration: MAX_REQUEST_SIZE_MB: /);
  });
});
