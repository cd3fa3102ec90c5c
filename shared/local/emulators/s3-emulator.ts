import type { S3Event } from 'aws-lambda';
import S3rver from 's3rver';
import type { RunningEmulator } from './dynamodb-local';

/**
 * Starts an S3-protocol server in this process, storing buckets and objects as files under `directory`.
 * `onEvent` receives the S3 event notification of each object written or deleted, as S3 would send it.
 */
export async function startS3Emulator(options: {
  directory: string;
  port?: number;
  onEvent?: (event: S3Event) => void;
}): Promise<RunningEmulator> {
  const server = new S3rver({ address: '127.0.0.1', port: options.port ?? 0, directory: options.directory, silent: true });
  const { onEvent } = options;
  // s3rver emits the notification in S3's own format; its typings only say `Records: unknown[]`.
  if (onEvent) server.on('event', (event) => onEvent(event as S3Event));
  const { port } = (await server.run()) as { port: number };
  return { endpoint: `http://127.0.0.1:${port}`, stop: () => server.close() };
}
