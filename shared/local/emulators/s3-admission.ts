import type { IncomingMessage } from 'node:http';
import { isOwnUserPeer } from '../loopback-peer';

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
