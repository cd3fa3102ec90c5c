import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';

/** Content types API Gateway passes as text; anything else arrives base64-encoded, as in the cloud. */
const TEXT_TYPE = /^(text\/|application\/(json|xml|x-www-form-urlencoded|[\w.+-]+\+(json|xml))\b)/i;

/**
 * The request target as a URL. The origin form (`/path?query`) is read against a fixed origin so that a path
 * such as `//x` stays a path (`new URL('//x', base)` takes `x` for a host, and `//` alone throws); an absolute
 * form (`http://host/path`) keeps its path.
 */
export function requestTarget(url = '/'): URL {
  if (url.startsWith('/')) return new URL(`http://localhost${url}`);
  try {
    return new URL(url);
  } catch {
    return new URL(`http://localhost/${url}`);
  }
}

/** Turns a node request into the API Gateway HTTP API payload 2.0 event that a Lambda would receive. */
export function toHttpApiEvent(
  request: IncomingMessage,
  body: Buffer,
  route: { routeKey: string; pathParameters: Record<string, string> },
  requestId: string,
): APIGatewayProxyEventV2 {
  const url = requestTarget(request.url);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined && name !== 'cookie') headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  // Own properties whatever the name, as JSON.parse gives the Lambda in the cloud: `query.__proto__ = v` would
  // set the prototype instead (and `'constructor' in query` is true), so that `?__proto__=1` passed unseen.
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) {
    const joined = Object.hasOwn(query, name) ? `${query[name]},${value}` : value;
    Object.defineProperty(query, name, { value: joined, enumerable: true, writable: true, configurable: true });
  }
  const contentType = headers['content-type'] ?? '';
  const isText = body.length === 0 || contentType === '' || TEXT_TYPE.test(contentType);
  const cookies = request.headers.cookie?.split(/;\s*/).filter(Boolean);
  const now = Date.now();
  return {
    version: '2.0',
    routeKey: route.routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    ...(cookies?.length ? { cookies } : {}),
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(Object.keys(route.pathParameters).length ? { pathParameters: route.pathParameters } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers['host'] ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method: request.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey: route.routeKey,
      stage: '$default',
      time: new Date(now).toUTCString(),
      timeEpoch: now,
    },
    ...(body.length ? { body: isText ? body.toString('utf8') : body.toString('base64') } : {}),
    isBase64Encoded: !isText,
  };
}

/** A Lambda context with what handlers read: the request id and the remaining time. */
export function lambdaContext(functionName: string, requestId: string, timeoutMs: number): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** Writes a Lambda result to the node response the way API Gateway would. */
export function writeResult(response: ServerResponse, result: APIGatewayProxyStructuredResultV2 | string | object): void {
  const structured =
    typeof result === 'object' && result !== null && 'statusCode' in result
      ? (result as APIGatewayProxyStructuredResultV2)
      : { statusCode: 200, headers: { 'content-type': 'application/json' }, body: typeof result === 'string' ? result : JSON.stringify(result) };
  const body = structured.body ? Buffer.from(structured.body, structured.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  for (const [name, value] of Object.entries(structured.headers ?? {})) response.setHeader(name, String(value));
  if (structured.cookies?.length) response.setHeader('set-cookie', structured.cookies);
  response.setHeader('content-length', body.length);
  response.statusCode = structured.statusCode ?? 200;
  response.end(body);
}
