import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';

/** A payload 2.0 event as API Gateway would send it for `routeKey`, for handler-level tests. */
export function httpEvent(
  routeKey: string,
  options: { body?: unknown; rawBody?: string; headers?: Record<string, string>; query?: Record<string, string>; path?: string } = {},
): APIGatewayProxyEventV2 {
  const [method, routePath] = routeKey === '$default' ? ['GET', options.path ?? '/'] : (routeKey.split(' ') as [string, string]);
  const path = options.path ?? routePath;
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  return {
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString: new URLSearchParams(options.query ?? {}).toString(),
    headers: {
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    ...(options.query ? { queryStringParameters: options.query } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'test',
      domainName: 'test',
      domainPrefix: 'test',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
      requestId: `req-${Math.random().toString(36).slice(2)}`,
      routeKey,
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    ...(body !== undefined ? { body } : {}),
    isBase64Encoded: false,
  };
}

export const lambdaTestContext = { awsRequestId: 'ctx-request', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
