import type { RouteContracts } from '../shared/http/route';
import type { HttpGroup } from '../shared/manifest';
import { routes as authRoutes } from './auth/schemas';
import { routes as documentsRoutes } from './documents/schemas';
import { routes as healthRoutes } from './health/schemas';
import { routes as labelsRoutes } from './labels/schemas';
import { routes as notificationsRoutes } from './notifications/schemas';
import { routes as ocrRoutes } from './ocr/schemas';
import { routes as searchRoutes } from './search/schemas';
import { routes as settingsRoutes } from './settings/schemas';
import { routes as sourcesRoutes } from './sources/schemas';
import { routes as usersRoutes } from './users/schemas';
import { routes as webhooksRoutes } from './webhooks/schemas';
import { routes as workspacesRoutes } from './workspaces/schemas';
import { routes as portabilityRoutes } from './portability/schemas';
import { routes as auditRoutes } from './audit/schemas';

/**
 * Every HTTP route's contract, by endpoint group, then by operation id: what the API contract (api-contract/)
 * documents and what test/unit/functions/route-contracts.test.ts holds against the manifest.
 *
 * Build and test time only: it pulls in every group's schemas, so a handler or Lambda entry that imported it
 * would carry the whole API's schemas; each handler imports its own group's `routes` instead.
 */
export const ROUTE_CONTRACTS: Record<HttpGroup, RouteContracts> = {
  auth: authRoutes,
  users: usersRoutes,
  settings: settingsRoutes,
  documents: documentsRoutes,
  labels: labelsRoutes,
  ocr: ocrRoutes,
  search: searchRoutes,
  sources: sourcesRoutes,
  notifications: notificationsRoutes,
  webhooks: webhooksRoutes,
  workspaces: workspacesRoutes,
  portability: portabilityRoutes,
  audit: auditRoutes,
  health: healthRoutes,
};
