import type { HttpGate } from '../../shared/container/kit/request-gate';
import { portabilityDepsOf } from '../../shared/container/kit/portability';
import { createImport, getExport, getImport, startExport, startImport } from '../../shared/domain/portability/manage-portability';
import { httpHandler } from '../../shared/http/pipeline';
import { json } from '../../shared/http/responses';
import { route } from '../../shared/http/route';
import { routes } from './schemas';

/** What the export and import endpoints use: each workspace's jobs, archives and data, and the portability queue. */
export type PortabilityDeps = HttpGate & Parameters<typeof portabilityDepsOf>[0];

/** The export and import endpoints: a workspace's admins export it to an archive, or import one into it when empty. */
export const createPortabilityHandler = (c: PortabilityDeps) => {
  const deps = (workspaceId: string) => portabilityDepsOf(c, workspaceId);
  return httpHandler({
    corsOrigins: c.corsOrigins,
    edge: c.edge,
    authenticate: c.authenticate,
    limits: c.limits,
    routes: [
      route({ ...routes.createWorkspaceExport, handle: async ({ principal }) => json(202, await startExport(deps(principal.workspaceId), principal)) }),
      route({ ...routes.getWorkspaceExport, handle: async ({ principal, params }) => json(200, await getExport(deps(principal.workspaceId), params.id)) }),
      route({
        ...routes.createWorkspaceImport,
        handle: async ({ principal, body }) => json(201, await createImport(deps(principal.workspaceId), principal, body.size)),
      }),
      route({ ...routes.startWorkspaceImport, handle: async ({ principal, params }) => json(202, await startImport(deps(principal.workspaceId), params.id)) }),
      route({ ...routes.getWorkspaceImport, handle: async ({ principal, params }) => json(200, await getImport(deps(principal.workspaceId), params.id)) }),
    ],
  });
};
