import type { HttpGate } from '../../shared/container/kit/request-gate';
import type { PortabilityServices } from '../../shared/container/kit/portability';
import type { WorkspaceScoped } from '../../shared/container/kit/workspace-scope';
import type { Clock } from '../../shared/domain/clock';
import type { DocumentRepository } from '../../shared/domain/documents/ports';
import type { LabelRepository } from '../../shared/domain/labels/ports';
import { createImport, getExport, getImport, startExport, startImport, type PortabilityDeps as ManageDeps } from '../../shared/domain/portability/manage-portability';
import type { EmptinessDeps } from '../../shared/domain/portability/workspace-emptiness';
import type { RuleRepository } from '../../shared/domain/rules/ports';
import type { SourceRepository } from '../../shared/domain/sources/ports';
import { httpHandler } from '../../shared/http/pipeline';
import { json } from '../../shared/http/responses';
import { route } from '../../shared/http/route';
import { routes } from './schemas';

/** What the export and import endpoints use: each workspace's jobs, archives and data, and the portability queue. */
export type PortabilityDeps = HttpGate & { clock: Clock; portability: Pick<PortabilityServices['portability'], 'jobs' | 'archives' | 'queue'> } &
  WorkspaceScoped<{ documents: DocumentRepository; labels: LabelRepository; sources: SourceRepository; rules: RuleRepository }>;

/** What the routes take, for one workspace. */
function portabilityDepsOf(c: PortabilityDeps, workspaceId: string): ManageDeps & EmptinessDeps {
  const data = c.forWorkspace(workspaceId);
  return {
    workspaceId,
    clock: c.clock,
    portabilityJobs: c.portability.jobs(workspaceId),
    portabilityQueue: c.portability.queue,
    archives: c.portability.archives(workspaceId),
    documents: data.documents,
    labels: data.labels,
    sources: data.sources,
    rules: data.rules,
  };
}

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
