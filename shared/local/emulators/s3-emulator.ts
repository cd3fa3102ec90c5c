import type { IncomingMessage } from 'node:http';
import type { S3Event } from 'aws-lambda';
import S3rver from 's3rver';
import { isOwnUserPeer } from '../loopback-peer';
import type { RunningEmulator } from './dynamodb-local';

/**
 * What a client that is not this OS user may do: the PUT of a presigned upload into `uploads/`, the one
 * request the service hands out (`POST /api/documents/upload-url`) for someone else to make. Nothing else:
 * s3rver serves anonymous requests and does not check SigV4 signatures, so reaching it must not be enough.
 */
export const isAdmittedRequest = (request: IncomingMessage, bucket: string | undefined): boolean => {
  if (isOwnUserPeer(request.socket)) return true;
  if (!bucket) return false;
  const url = new URL(request.url ?? '/', 'http://s3.local');
  return request.method === 'PUT' && url.pathname.startsWith(`/${bucket}/uploads/`) && url.searchParams.has('X-Amz-Signature');
};

/**
 * Starts an S3-protocol server in this process, on loopback, storing buckets and objects as files under
 * `directory`. `onEvent` receives the S3 event notification of each object written or deleted, as S3 would
 * send it. Requests from other OS users get 403 AccessDenied except presigned uploads into `uploadsBucket`.
 */
export async function startS3Emulator(options: {
  directory: string;
  uploadsBucket?: string;
  port?: number;
  onEvent?: (event: S3Event) => void;
}): Promise<RunningEmulator> {
  const server = new S3rver({ address: '127.0.0.1', port: options.port ?? 0, directory: options.directory, silent: true });
  // First in the chain (Koa composes it at run()), before s3rver reads anything.
  server.middleware.unshift(async (ctx, next) => {
    if (isAdmittedRequest(ctx.req, options.uploadsBucket)) return next();
    ctx.status = 403;
    ctx.type = 'application/xml';
    ctx.body = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>';
  });
  const { onEvent } = options;
  // s3rver emits the notification in S3's own format; its typings only say `Records: unknown[]`.
  if (onEvent) server.on('event', (event) => onEvent(event as S3Event));
  const { port } = (await server.run()) as { port: number };
  return { endpoint: `http://127.0.0.1:${port}`, stop: () => server.close() };
}
