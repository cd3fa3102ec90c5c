import type { CorsOrigins } from '../../shared/http/cors';
import { httpHandler } from '../../shared/http/pipeline';

/** The `$default` route: a P 404 for any unknown method and path, and the answer to CORS preflights. */
export const createFallbackHandler = (deps: { corsOrigins: CorsOrigins }) =>
  httpHandler({ corsOrigins: deps.corsOrigins, routes: [] });
