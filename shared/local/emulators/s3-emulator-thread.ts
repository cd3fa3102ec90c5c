/** The S3 emulator's own thread (see `startS3Emulator`). */
import { unlink } from 'node:fs/promises';
import { workerData } from 'node:worker_threads';
import S3rver from '@20minutes/s3rver';
import { serveOnThisThread } from './emulator-thread';
import { isAdmittedRequest } from './s3-admission';

export interface S3EmulatorThreadSettings {
  directory: string;
  uploadsBucket?: string;
  port: number;
  forwardEvents: boolean;
}

const settings = workerData as S3EmulatorThreadSettings;

/**
 * The web console (the runtime's page, another origin than this port) PUTs presigned uploads into the uploads
 * bucket from the browser, as it does to S3 in the cloud: a CORS rule lets it, for PUT only. The admission check
 * still stands before every request.
 */
const BROWSER_UPLOADS_CORS = Buffer.from(
  '<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>PUT</AllowedMethod>' +
    '<AllowedHeader>*</AllowedHeader><MaxAgeSeconds>600</MaxAgeSeconds></CORSRule></CORSConfiguration>',
);

await serveOnThisThread(async (post) => {
  const server = new S3rver({
    address: '127.0.0.1',
    port: settings.port,
    directory: settings.directory,
    silent: true,
    // The runtime's credentials are public constants (LOCAL_CREDENTIALS): a signature proves nothing here, the
    // admission check below is what keeps other local users out.
    allowMismatchedSignatures: true,
    ...(settings.uploadsBucket ? { configureBuckets: [{ name: settings.uploadsBucket, configs: [BROWSER_UPLOADS_CORS] }] } : {}),
  });
  // s3rver prunes a deleted object's emptied folders by checking they are empty, then removing them recursively: a
  // concurrent PUT into the same folder in between (two files of a sync staged side by side) loses its object.
  // Empty folders hold no objects and list as nothing, so they are left in place.
  server.store.deleteObject = async (bucket, key) => {
    const files = (['object', 'object.md5', 'metadata.json'] as const).map((resource) => server.store.getResourcePath(bucket, key, resource));
    await Promise.all(
      files.map((file) =>
        unlink(file).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
        }),
      ),
    );
  };
  // First in the chain (Koa composes it at run()), before s3rver reads anything.
  server.middleware.unshift(async (ctx, next) => {
    if (isAdmittedRequest(ctx.req, settings.uploadsBucket)) return next();
    ctx.status = 403;
    ctx.type = 'application/xml';
    ctx.body = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>';
  });
  // s3rver emits the notification in S3's own format, plain data that crosses threads as it is.
  if (settings.forwardEvents) server.on('event', (event) => post({ type: 'event', event }));
  const { port } = (await server.run()) as { port: number };
  return { port, close: () => server.close() };
});
