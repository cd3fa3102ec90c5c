import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ListBucketsCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { ListQueuesCommand } from '@aws-sdk/client-sqs';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqsClient } from '../../../shared/adapters/aws/sqs/client';
import { createS3Client } from '../../../shared/adapters/aws/s3/client';
import { localClientOptions } from '../../../shared/local/local-clients';
import type { RunningEmulator } from '../../../shared/local/emulators/dynamodb-local';
import { startS3Emulator } from '../../../shared/local/emulators/s3-emulator';
import { startSqsEmulator } from '../../../shared/local/emulators/sqs-emulator';
import { LocalWebSocketGateway } from '../../../shared/local/websocket-gateway';

const execFileAsync = promisify(execFile);
const BUCKET = 'listener-bucket';
/** The uid of `nobody`: another OS user of the same machine. Switching to it needs root, as CI runs. */
const OTHER_USER = '65534';
const isRoot = process.getuid?.() === 0;

/**
 * Makes one HTTP/1.1 request as another OS user of this machine over a raw socket, and returns the response's
 * status, or 'refused' when the connection closes with no answer.
 */
async function requestAsOtherUser(url: string, method = 'GET', body = ''): Promise<number | 'refused'> {
  const { hostname, port, pathname, search } = new URL(url);
  const request = `${method} ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
  const script = `const socket = require('node:net').connect(${port}, ${JSON.stringify(hostname)});
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => console.log(answer.split(' ')[1] ?? 'refused'));
    socket.write(${JSON.stringify(request)});`;
  const { stdout } = await execFileAsync('setpriv', ['--reuid', OTHER_USER, '--regid', OTHER_USER, '--clear-groups', process.execPath, '-e', script], {
    cwd: tmpdir(),
  });
  const answer = stdout.trim();
  return answer === 'refused' ? 'refused' : Number(answer);
}

describe.runIf(isRoot)('the local listeners, reached by another OS user of the machine', () => {
  let s3: RunningEmulator;
  let sqs: RunningEmulator;
  let directory: string;
  let connectionsApi: Server;
  let gateway: LocalWebSocketGateway;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'docservice-listeners-'));
    [s3, sqs] = await Promise.all([startS3Emulator({ directory, uploadsBucket: BUCKET }), startSqsEmulator()]);
    const client = createS3Client(localClientOptions(s3.endpoint));
    // The emulator made the uploads bucket itself (with its browser CORS rule).
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'documents/secret/original', Body: 'private bytes' }));
    gateway = new LocalWebSocketGateway({ handler: async () => ({ statusCode: 200 }) });
    connectionsApi = createServer((request, response) => gateway.handleManagementRequest(request, response, Buffer.alloc(0)));
    await new Promise<void>((resolve) => connectionsApi.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await Promise.allSettled([s3?.stop(), sqs?.stop(), gateway?.close()]);
    await new Promise((resolve) => connectionsApi?.close(resolve));
    await rm(directory, { recursive: true, force: true });
  });

  it('serves this OS user as before', async () => {
    const buckets = await createS3Client(localClientOptions(s3.endpoint)).send(new ListBucketsCommand({}));
    const queues = await createSqsClient(localClientOptions(sqs.endpoint)).send(new ListQueuesCommand({}));

    expect(buckets.Buckets?.map((bucket) => bucket.Name)).toContain(BUCKET);
    expect(queues.$metadata.httpStatusCode).toBe(200);
  });

  it('refuses another user a stored object of the S3 emulator', async () => {
    const status = await requestAsOtherUser(`${s3.endpoint}/${BUCKET}/documents/secret/original`);

    expect(status).toBe(403);
  });

  it('lets another user make the presigned upload it was handed', async () => {
    const client = createS3Client(localClientOptions(s3.endpoint));
    const url = await getSignedUrl(client, new PutObjectCommand({ Bucket: BUCKET, Key: 'uploads/doc-1' }), { expiresIn: 60 });

    const status = await requestAsOtherUser(url, 'PUT', 'uploaded bytes');

    expect(status).toBe(200);
  });

  it('closes another user connection to the SQS emulator before reading it', async () => {
    const status = await requestAsOtherUser(`${sqs.endpoint}/`, 'POST', '{}');

    expect(status).toBe('refused');
  });

  it('refuses another user the @connections API of the WebSocket gateway', async () => {
    const port = (connectionsApi.address() as AddressInfo).port;

    const status = await requestAsOtherUser(`http://127.0.0.1:${port}/@connections/some-id`, 'POST', '{"type":"forged"}');

    expect(status).toBe(403);
  });
});
