import type { S3Event } from 'aws-lambda';
import type { RunningEmulator } from './dynamodb-local';
import { startEmulatorThread } from './emulator-thread';
import type { S3EmulatorThreadSettings } from './s3-emulator-thread';

export { isAdmittedRequest } from './s3-admission';

/**
 * Starts an S3-protocol server on loopback, storing buckets and objects as files under `directory`. `onEvent`
 * receives the S3 event notification of each object written or deleted, as S3 would send it. Requests from
 * other OS users get 403 AccessDenied except presigned uploads into `uploadsBucket`.
 *
 * The server runs on a thread of its own (see `startEmulatorThread`): on the thread that answers the API, the
 * health check's HeadBucket took over 2 s (up to 14 s) while the hostile corpus was uploaded and read, every turn
 * of its Koa middleware and file-system callbacks waiting behind the API's work, although the bucket answered
 * in milliseconds.
 */
export function startS3Emulator(options: {
  directory: string;
  uploadsBucket?: string;
  port?: number;
  onEvent?: (event: S3Event) => void;
}): Promise<RunningEmulator> {
  const { onEvent } = options;
  const settings: S3EmulatorThreadSettings = {
    directory: options.directory,
    ...(options.uploadsBucket ? { uploadsBucket: options.uploadsBucket } : {}),
    port: options.port ?? 0,
    forwardEvents: onEvent !== undefined,
  };
  return startEmulatorThread({
    name: 'S3 emulator',
    source: new URL('./s3-emulator-thread.ts', import.meta.url),
    settings,
    ...(onEvent ? { onEvent: (event: unknown) => onEvent(event as S3Event) } : {}),
  });
}
