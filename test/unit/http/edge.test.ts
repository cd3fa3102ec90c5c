import { describe, expect, it } from 'vitest';
import type { RequestOrigin } from '../../../shared/domain/limits/limit-request';
import type { EdgeOrigin } from '../../../shared/http/edge';
import { httpHandler } from '../../../shared/http/pipeline';
import { json } from '../../../shared/http/responses';
import { route } from '../../../shared/http/route';
import { EDGE_HEADERS } from '../../../shared/manifest';
import { httpEvent, lambdaTestContext } from '../../support/http-events';

const TOKEN = 'origin-token-0123456789abcdefghijklmnopqrstuvwxyz';

/** A handler of one public route that records the origin each request was counted under. */
function handlerBehind(edge: EdgeOrigin | undefined) {
  const counted: RequestOrigin[] = [];
  const handler = httpHandler({
    corsOrigins: [],
    edge,
    limits: async (origin) => {
      counted.push(origin);
      return null;
    },
    routes: [route({ key: 'GET /api/things', access: 'public', handle: async () => json(200, { ok: true }) })],
  });
  const call = (headers: Record<string, string>) => handler(httpEvent('GET /api/things', { headers }), lambdaTestContext);
  return { call, counted };
}

const EDGE: EdgeOrigin = { originToken: async () => TOKEN };

describe('requests behind the CloudFront edge', () => {
  it('refuses a request without the origin token with 403, as one sent to the gateway directly', async () => {
    // Arrange
    const { call, counted } = handlerBehind(EDGE);

    // Act
    const response = await call({});

    // Assert
    expect(response.statusCode).toBe(403);
    expect(JSON.parse(response.body ?? '{}').error).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'not_through_edge' } });
    expect(counted).toEqual([]);
  });

  it('refuses a request with a wrong origin token', async () => {
    // Arrange
    const { call } = handlerBehind(EDGE);

    // Act
    const response = await call({ [EDGE_HEADERS.originToken]: `${TOKEN.slice(0, -1)}!` });

    // Assert
    expect(response.statusCode).toBe(403);
  });

  it('serves a request with the token and counts it under the client address the edge names', async () => {
    // Arrange
    const { call, counted } = handlerBehind(EDGE);

    // Act
    const response = await call({ [EDGE_HEADERS.originToken]: TOKEN, [EDGE_HEADERS.viewerAddress]: '198.51.100.23' });

    // Assert
    expect(response.statusCode).toBe(200);
    expect(counted.map((origin) => origin.sourceIp)).toEqual(['198.51.100.23']);
  });

  it('without an edge counts the gateway source address, whatever address header a client sends', async () => {
    // Arrange
    const { call, counted } = handlerBehind(undefined);

    // Act
    const response = await call({ [EDGE_HEADERS.viewerAddress]: '198.51.100.23' });

    // Assert
    expect(response.statusCode).toBe(200);
    expect(counted.map((origin) => origin.sourceIp)).toEqual(['127.0.0.1']);
  });
});
