import type { Middleware } from 'openapi-fetch';
import { createDocServiceClient, type DocServiceClient } from '../../client/src';
import { assertKeepsContract } from './openapi-validator';

/** Checks every answer the typed client receives against the contract, as the e2e ApiClient does. */
const keepsContract: Middleware = {
  async onResponse({ request, response }) {
    const text = await response.clone().text();
    const contentType = response.headers.get('content-type');
    const json = contentType?.includes('application/json');
    const url = new URL(request.url);
    assertKeepsContract({
      method: request.method,
      path: url.pathname,
      status: response.status,
      contentType,
      body: json && text ? JSON.parse(text) : text || undefined,
      binary: Boolean(contentType) && !json,
    });
    return response;
  },
};

/**
 * The generated client (client/src) as e2e journeys use it: the proof that a generator consumes the document,
 * with every answer checked against the document too.
 */
export function typedClient(baseUrl: string, token: string | null): DocServiceClient {
  const client = createDocServiceClient({ baseUrl, ...(token ? { token } : {}) });
  client.use(keepsContract);
  return client;
}
