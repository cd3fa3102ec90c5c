import { createHash, timingSafeEqual } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { forbidden } from '../domain/errors';
import { EDGE_HEADERS } from '../manifest';
import { header } from './request';

/** The functions sit behind the stack's CloudFront edge (cloud only; the local runtime has none). */
export interface EdgeOrigin {
  /** The token the edge adds to every request it forwards; read once (Secrets Manager), then kept. */
  originToken: () => Promise<string>;
}

// Hashes first: timingSafeEqual needs equal lengths, and a length check alone would tell the token's length.
const sameToken = (presented: string, expected: string): boolean =>
  timingSafeEqual(createHash('sha256').update(presented).digest(), createHash('sha256').update(expected).digest());

/**
 * The caller's address for the per-address rate limits. Without an edge it is the gateway's source address.
 * Behind the edge the gateway sees only CloudFront's addresses, so the client's comes from the edge's header;
 * and a request without the edge's token reached the gateway directly, around the edge's size check and the
 * address it vouches for: 403.
 */
export async function clientAddress(event: APIGatewayProxyEventV2, edge: EdgeOrigin | undefined): Promise<string> {
  const gatewaySource = event.requestContext.http.sourceIp;
  if (!edge) return gatewaySource;
  if (!sameToken(header(event, EDGE_HEADERS.originToken) ?? '', await edge.originToken())) {
    throw forbidden("Requests must be sent to the service's address, not to its gateway directly", { reason: 'not_through_edge' });
  }
  return header(event, EDGE_HEADERS.viewerAddress) ?? gatewaySource;
}
