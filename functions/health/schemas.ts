import { contract, type RouteContracts } from '../../shared/http/route';

// The health check takes no input; its contract lives here all the same, where every group declares its routes.

/** The health route's contract, by operation id (the API contract's operationId). */
export const routes = {
  getHealth: contract({ key: 'GET /api/health', access: 'public' }),
} as const satisfies RouteContracts;
