import { Readable } from 'node:stream';
import { Client, Connection } from '@opensearch-project/opensearch';

/** A request the OpenSearch client sent: its method, path, query string and parsed JSON body. */
export interface OpenSearchCall {
  method: string;
  path: string;
  querystring: string;
  body: unknown;
}

/** The answer to one request. */
export interface OpenSearchReply {
  status: number;
  body: unknown;
}

/**
 * A real OpenSearch client whose transport answers from `reply` instead of the network and records every
 * request (the only mock of the adapter tests: OpenSearch cannot run here; the real engine runs the contract
 * suite when OPENSEARCH_URL is set).
 */
export function fakeOpenSearch(reply: (call: OpenSearchCall) => OpenSearchReply): { client: Client; calls: OpenSearchCall[] } {
  const calls: OpenSearchCall[] = [];
  class FakeConnection extends Connection {
    override request(...[params, callback]: Parameters<Connection['request']>): ReturnType<Connection['request']> {
      const raw = params as unknown as { method: string; path: string; querystring?: string; body?: string };
      const call: OpenSearchCall = { method: raw.method, path: raw.path, querystring: raw.querystring ?? '', body: raw.body ? JSON.parse(raw.body) : undefined };
      calls.push(call);
      const { status, body } = reply(call);
      const response = Object.assign(Readable.from([Buffer.from(JSON.stringify(body))]), {
        statusCode: status,
        headers: { 'content-type': 'application/json; charset=utf-8' },
      });
      process.nextTick(callback, null, response as never);
      return { abort: () => undefined } as never;
    }
  }
  return { client: new Client({ node: 'http://opensearch.test:9200', Connection: FakeConnection, maxRetries: 0 }), calls };
}

/** The value of a query-string parameter of a call (`routing`, `version`, ...). */
export const paramOf = (call: OpenSearchCall | undefined, name: string): string | null => new URLSearchParams(call?.querystring ?? '').get(name);
