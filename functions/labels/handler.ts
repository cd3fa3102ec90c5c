import type { HttpGate } from '../../shared/container/kit/request-gate';
import { inWorkspace, type WorkspaceScoped } from '../../shared/container/kit/workspace-scope';
import type { Clock } from '../../shared/domain/clock';
import type { LabelRepository } from '../../shared/domain/labels/ports';
import type { RegexEngine, RuleDocuments, RuleJobQueue, RuleRepository } from '../../shared/domain/rules/ports';
import { assignLabel } from '../../shared/domain/labels/assign-label';
import { deleteLabel } from '../../shared/domain/labels/delete-label';
import { updateLabel } from '../../shared/domain/labels/update-label';
import { createLabel } from '../../shared/domain/labels/create-label';
import { listLabels } from '../../shared/domain/labels/list-labels';
import { createRule } from '../../shared/domain/rules/create-rule';
import { listRules } from '../../shared/domain/rules/list-rules';
import { updateRule } from '../../shared/domain/rules/update-rule';
import { deleteRule } from '../../shared/domain/rules/delete-rule';
import { startApplyRule } from '../../shared/domain/rules/apply-rule-job';
import { httpHandler } from '../../shared/http/pipeline';
import { json, noContent } from '../../shared/http/responses';
import { route } from '../../shared/http/route';
import { routes } from './schemas';

/** What the label and rule endpoints use: each workspace's labels, rules and document count, and the rule-jobs queue. */
export type LabelsDeps = HttpGate &
  WorkspaceScoped<{ workspaceId: string; labels: LabelRepository; rules: RuleRepository; ruleDocuments: Pick<RuleDocuments, 'count'> }> & {
    clock: Clock;
    regex: RegexEngine;
    ruleJobs: RuleJobQueue;
  };

/** The P label endpoints and the labelling rules: viewers list, editors create, change, delete, assign and apply. */
export const createLabelsHandler = (c: LabelsDeps) =>
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
      route({ ...routes.listRules, handle: async ({ principal }) => json(200, { rules: await listRules(inWorkspace(c, principal)) }) }),
      route({
        ...routes.createRule,
        handle: async ({ principal, body }) =>
          json(201, await createRule(inWorkspace(c, principal), principal, { ...body, when: whenOf(body.when), addLabels: body.add_labels })),
      }),
      route({
        ...routes.updateRule,
        handle: async ({ params, body, principal }) =>
          json(200, await updateRule(inWorkspace(c, principal), params.id, { ...body, when: body.when && whenOf(body.when), addLabels: body.add_labels })),
      }),
      route({
        ...routes.deleteRule,
        handle: async ({ params, principal }) => {
          await deleteRule(inWorkspace(c, principal), params.id);
          return noContent();
        },
      }),
      route({ ...routes.applyRule, handle: async ({ params, principal }) => json(202, await startApplyRule(inWorkspace(c, principal), params.id)) }),
    ],
  });

/** A rule's conditions as stored: only those given (an absent one lets every document through). */
const whenOf = (when: { source_id?: string | null | undefined; mime_types?: string[] | undefined }) => ({
  ...(when.source_id !== undefined ? { source_id: when.source_id } : {}),
  ...(when.mime_types !== undefined ? { mime_types: when.mime_types } : {}),
});
