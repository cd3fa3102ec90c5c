import { inWorkspace, type AppContainer } from '../../shared/container/app-container';
import { assignLabel } from '../../shared/domain/labels/assign-label';
import { deleteLabel } from '../../shared/domain/labels/delete-label';
import { updateLabel } from '../../shared/domain/labels/update-label';
import { createLabel } from '../../shared/domain/labels/create-label';
import { listLabels } from '../../shared/domain/labels/list-labels';
import { httpHandler } from '../../shared/http/pipeline';
import { json, noContent } from '../../shared/http/responses';
import { route } from '../../shared/http/route';
import { routes } from './schemas';

/** The P label endpoints: viewers list, editors create, change, delete and assign. */
export const createLabelsHandler = (c: AppContainer) =>
  httpHandler({
    corsOrigins: c.corsOrigins,
    edge: c.edge,
    authenticate: c.authenticate,
    limits: c.limits,
    routes: [
      route({ ...routes.listLabels, handle: async ({ principal }) => json(200, await listLabels(inWorkspace(c, principal))) }),
      route({
        ...routes.createLabel,
        handle: async ({ principal, body }) => json(201, await createLabel(inWorkspace(c, principal), principal, body)),
      }),
      route({
        ...routes.updateLabel,
        handle: async ({ params, body, principal }) => json(200, await updateLabel(inWorkspace(c, principal), params.id, body)),
      }),
      route({
        ...routes.deleteLabel,
        handle: async ({ params, principal }) => {
          await deleteLabel(inWorkspace(c, principal), params.id);
          return noContent();
        },
      }),
      route({
        ...routes.assignLabel,
        handle: async ({ params, body, principal }) => json(200, await assignLabel(inWorkspace(c, principal), params.id, body.document_ids)),
      }),
    ],
  });
