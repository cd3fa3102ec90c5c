import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { toHttpApiEvent } from '../../../shared/local/api-gateway-event';

function request(method: string, url: string, headers: Record<string, string>): IncomingMessage {
  const message = new IncomingMessage(new Socket());
  message.method = method;
  message.url = url;
  message.headers = headers;
  message.httpVersion = '1.1';
  return message;
}

const route = { routeKey: 'POST /api/things/{id}', pathParameters: { id: '7' } };

describe('toHttpApiEvent', () => {
  it('builds a payload 2.0 event with route key, path, query and request id', () => {
    const event = toHttpApiEvent(request('POST', '/api/things/7?a=1&b=2', { host: 'localhost' }), Buffer.alloc(0), route, 'req-1');

    expect(event).toMatchObject({
      version: '2.0',
      routeKey: 'POST /api/things/{id}',
      rawPath: '/api/things/7',
      rawQueryString: 'a=1&b=2',
      queryStringParameters: { a: '1', b: '2' },
      pathParameters: { id: '7' },
      requestContext: { requestId: 'req-1', http: { method: 'POST', path: '/api/things/7' } },
    });
  });

  it('joins repeated query parameters with commas, as API Gateway does', () => {
    const event = toHttpApiEvent(request('GET', '/x?tag=a&tag=b', {}), Buffer.alloc(0), route, 'r');

    expect(event.queryStringParameters).toEqual({ tag: 'a,b' });
  });

  it('keeps __proto__ and constructor as own query parameters, as JSON.parse does in the cloud', () => {
    const event = toHttpApiEvent(request('GET', '/x?__proto__=1&constructor=2&constructor=3', {}), Buffer.alloc(0), route, 'r');

    expect(Object.keys(event.queryStringParameters!)).toEqual(['__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(event.queryStringParameters, '__proto__')?.value).toBe('1');
    expect(event.queryStringParameters!['constructor']).toBe('2,3');
  });

  it.each(['//', '//host/path', '/a//b'])('reads the request target %s as a path, not as a host', (target) => {
    const event = toHttpApiEvent(request('GET', `${target}?q=1`, {}), Buffer.alloc(0), route, 'r');

    expect(event.rawPath).toBe(target);
    expect(event.queryStringParameters).toEqual({ q: '1' });
  });

  it('passes a JSON body as text', () => {
    const event = toHttpApiEvent(request('POST', '/x', { 'content-type': 'application/json' }), Buffer.from('{"a":1}'), route, 'r');

    expect(event).toMatchObject({ body: '{"a":1}', isBase64Encoded: false });
  });

  it('passes a binary body base64-encoded', () => {
    const bytes = Buffer.from([0, 255, 16, 32]);

    const event = toHttpApiEvent(request('POST', '/x', { 'content-type': 'application/pdf' }), bytes, route, 'r');

    expect(event.isBase64Encoded).toBe(true);
    expect(Buffer.from(event.body!, 'base64')).toEqual(bytes);
  });

  it('moves cookies out of the headers into the cookies list', () => {
    const event = toHttpApiEvent(request('GET', '/x', { cookie: 'a=1; b=2' }), Buffer.alloc(0), route, 'r');

    expect(event.cookies).toEqual(['a=1', 'b=2']);
    expect(event.headers['cookie']).toBeUndefined();
  });
});
