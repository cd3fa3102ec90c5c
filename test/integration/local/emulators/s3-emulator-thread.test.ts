import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, DeleteObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { S3Event } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Client } from '../../../../shared/adapters/aws/s3/client';
import { localClientOptions } from '../../../../shared/local/local-clients';
import type { RunningEmulator } from '../../../../shared/local/emulators/dynamodb-local';
import { startS3Emulator } from '../../../../shared/local/emulators/s3-emulator';

const BUCKET = 'thread-bucket';
/** The objects written beside the one deleted, in each folder. */
const SIBLINGS = ['second', 'third', 'fourth', 'fifth'];

describe('the S3 emulator', () => {
  let s3: RunningEmulator;
  let directory: string;
  const events: S3Event[] = [];

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'docservice-s3-thread-'));
    s3 = await startS3Emulator({ directory, onEvent: (event) => events.push(event) });
    await createS3Client(localClientOptions(s3.endpoint)).send(new CreateBucketCommand({ Bucket: BUCKET }));
  });

  afterAll(async () => {
    await s3?.stop();
    await rm(directory, { recursive: true, force: true });
  });

  it('stores an object while the thread that started it is busy, so the API thread’s load cannot delay it', async () => {
    // Arrange: a connection, then a PUT handed to the kernel before this thread stops turning its event loop.
    const { port } = new URL(s3.endpoint);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.on('data', () => undefined);
    const stored = join(directory, BUCKET, 'busy._S3rver_object');

    // Act: this thread is blocked (no callback of its own can run) until the object is on disk or 5 s pass.
    socket.write(`PUT /${BUCKET}/busy HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello`);
    const deadline = Date.now() + 5000;
    while (!existsSync(stored) && Date.now() < deadline);
    const storedWhileBusy = existsSync(stored);
    socket.destroy();

    // Assert
    expect(storedWhileBusy).toBe(true);
  });

  it('reports each object written to the thread that started it, as S3 would notify it', async () => {
    // Arrange
    const client = createS3Client(localClientOptions(s3.endpoint));
    const reported = () => events.flatMap((event) => event.Records).find((record) => record.s3.object.key === 'reported');

    // Act
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'reported', Body: 'bytes' }));
    await expect.poll(reported).toBeDefined();

    // Assert
    expect(reported()).toMatchObject({ eventName: 'ObjectCreated:Put', s3: { bucket: { name: BUCKET } } });
  });
  it('keeps an object written into a folder while another object of that folder is deleted', async () => {
    // Arrange: rounds of a folder holding one object, which is deleted while four more are written beside it.
    const client = createS3Client(localClientOptions(s3.endpoint));
    const rounds = Array.from({ length: 100 }, (_, round) => `staging/round-${round}`);
    await Promise.all(rounds.map((folder) => client.send(new PutObjectCommand({ Bucket: BUCKET, Key: `${folder}/first`, Body: 'first' }))));

    // Act
    await Promise.all(
      rounds.map((folder) =>
        Promise.all([
          client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: `${folder}/first` })),
          ...SIBLINGS.map((sibling) => client.send(new PutObjectCommand({ Bucket: BUCKET, Key: `${folder}/${sibling}`, Body: sibling }))),
        ]),
      ),
    );
    const kept = await Promise.all(
      rounds.flatMap((folder) => SIBLINGS.map((sibling) => `${folder}/${sibling}`)).map((key) =>
        client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key })).then(
          () => true,
          () => false,
        ),
      ),
    );

    // Assert
    expect(kept.filter((found) => !found)).toHaveLength(0);
  });
});
