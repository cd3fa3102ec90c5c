import type { HttpGate, RequestGate } from '../../shared/container/kit/request-gate';
import { inWorkspace, type WorkspaceScoped } from '../../shared/container/kit/workspace-scope';
import type { QuotaCounts } from '../../shared/domain/quotas/ports';
import type { CredentialVault, SourceRepository, SyncQueue, SyncStateStore } from '../../shared/domain/sources/ports';
import type { RemoteFolders } from '../../shared/domain/sources/remote-folder';
import { createSource } from '../../shared/domain/sources/create-source';
import { deleteSource } from '../../shared/domain/sources/delete-source';
import { listSources } from '../../shared/domain/sources/list-sources';
import { startSync } from '../../shared/domain/sources/start-sync';
import { syncStatus } from '../../shared/domain/sources/sync-status';
import { updateSource } from '../../shared/domain/sources/update-source';
import { httpHandler } from '../../shared/http/pipeline';
import { json, noContent } from '../../shared/http/responses';
import { route } from '../../shared/http/route';
import { routes } from './schemas';

/** What the sources endpoints use. */
export type SourcesDeps = HttpGate &
  Pick<RequestGate, 'clock' | 'plans' | 'workspaceStatus'> & { quotaCounts: QuotaCounts; remoteFolders: RemoteFolders; syncQueue: SyncQueue; vault: CredentialVault } &
  WorkspaceScoped<{ workspaceId: string; sources: SourceRepository; syncState: SyncStateStore }>;

/** The P source endpoints: viewers read sources and their syncs, editors manage them and start syncs. */
export const createSourcesHandler = (c: SourcesDeps) =>
  httpHandler({
    corsOrigins: c.corsOrigins,
    edge: c.edge,
    authenticate: c.authenticate,
    limits: c.limits,
    routes: [
      route({ ...routes.listSources, handle: async ({ principal }) => json(200, await listSources(inWorkspace(c, principal))) }),
      route({
        ...routes.createSource,
        handle: async ({ principal, body }) =>
          json(
            201,
            await createSource(inWorkspace(c, principal), {
              name: body.name,
              type: body.type,
              url: body.url,
              username: body.username,
              password: body.password,
              syncInterval: body.sync_interval,
              recursive: body.recursive,
              filePatterns: body.file_patterns,
              enabled: body.enabled,
              createdBy: principal.userId,
            }),
          ),
      }),
      route({
        ...routes.updateSource,
        handle: async ({ principal, params, body }) =>
          json(
            200,
            await updateSource(inWorkspace(c, principal), params.id, {
              name: body.name,
              url: body.url,
              username: body.username,
              password: body.password,
              syncInterval: body.sync_interval,
              recursive: body.recursive,
              filePatterns: body.file_patterns,
              enabled: body.enabled,
            }),
          ),
      }),
      route({
        ...routes.deleteSource,
        handle: async ({ principal, params }) => {
          await deleteSource(inWorkspace(c, principal), params.id);
          return noContent();
        },
      }),
      route({
        ...routes.syncSource,
        handle: async ({ principal, params }) => json(202, await startSync(inWorkspace(c, principal), params.id, { trigger: 'manual', by: principal.userId })),
      }),
      route({
        ...routes.getSyncStatus,
        handle: async ({ principal, params }) => json(200, await syncStatus(inWorkspace(c, principal), params.id)),
      }),
    ],
  });
