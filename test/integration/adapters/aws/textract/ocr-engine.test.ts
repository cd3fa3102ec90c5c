import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTextractClient } from '../../../../../shared/adapters/aws/clients';
import { TextractOcrEngine } from '../../../../../shared/adapters/aws/textract/ocr-engine';
import { OcrEngineBusy } from '../../../../../shared/domain/ocr/ports';
import { PNG } from '../../../../support/minimal-files';
import { fileInput } from '../../../../support/ocr-input';

/**
 * The retry policy as it reaches the wire: the real SDK client from the factory the OCR worker uses, its
 * middleware (retries included) and HTTP, against a loopback server answering as Textract does when it throttles
 * or fails. aws-sdk-client-mock replaces `send`, and with it the SDK's retries, so it cannot count these.
 */
describe('the Textract client under the OCR engine', () => {
  let server: Server;
  let requests: string[];
  let answer: { status: number; type: string };

  beforeEach(async () => {
    requests = [];
    server = createServer((request: IncomingMessage, response) => {
      requests.push(String(request.headers['x-amz-target']));
      request.resume().once('end', () => {
        response
          .writeHead(answer.status, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-errortype': answer.type })
          .end(JSON.stringify({ __type: answer.type, message: 'stand-in answer' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const engine = () =>
    new TextractOcrEngine({
      client: createTextractClient({
        endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        region: 'eu-west-1',
        credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      }),
      bucket: 'documents-bucket',
      sleep: () => Promise.resolve(),
    });

  const recognize = () =>
    engine()
      .recognize({ ...fileInput(PNG), mimeType: 'image/png', language: 'eng', objectKey: 'documents/doc-1/original' })
      .catch((caught: unknown) => caught);

  it('sends a request Textract keeps throttling five times in all, the engine\'s attempts, none added by the SDK', async () => {
    answer = { status: 400, type: 'ThrottlingException' };

    const error = await recognize();

    expect(error).toBeInstanceOf(OcrEngineBusy);
    expect(requests).toEqual(Array(5).fill('Textract.DetectDocumentText'));
  });

  it('sends a request that keeps failing with a server error five times in all, then leaves the error to the queue', async () => {
    answer = { status: 500, type: 'InternalServerError' };

    const error = await recognize();

    expect(error).toMatchObject({ name: 'InternalServerError' });
    expect(requests).toHaveLength(5);
  });
});
