import createClient, { type Client, type ClientOptions, type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './openapi';

export type { components, operations, paths };

/** A response shape of the API by its component name: `Schema<'Document'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** The typed client: `client.GET('/api/documents/{id}', { params: { path: { id } } })`. */
export type DocServiceClient = Client<paths>;

export interface DocServiceClientOptions extends ClientOptions {
  /** Where the API is: `https://docs.example.com` or `http://localhost:8080` (the paths start with `/api`). */
  baseUrl: string;
  /** A token from `POST /api/auth/login`, sent as `Authorization: Bearer <token>` with every request. */
  token?: string;
}

/** A client of the docservice API, typed from its OpenAPI document (client/src/openapi.d.ts). */
export function createDocServiceClient({ token, ...options }: DocServiceClientOptions): DocServiceClient {
  const client = createClient<paths>(options);
  if (token) client.use(bearerToken(token));
  return client;
}

/** Sends the token with every request. */
export const bearerToken = (token: string): Middleware => ({
  onRequest({ request }) {
    request.headers.set('authorization', `Bearer ${token}`);
    return request;
  },
});
