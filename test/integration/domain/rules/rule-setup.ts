import { createLabel } from '../../../../shared/domain/labels/create-label';
import type { RuleJobMessage } from '../../../../shared/domain/rules/ports';
import type { NewRule } from '../../../../shared/domain/rules/create-rule';
import { domainStores, editorOf, type WorkspaceStores } from '../workspace-stores';

/**
 * The rules' use cases on DynamoDB Local, with the real repositories, label assignment and RE2 engine; the steps
 * of runs over existing documents go to `queued`, in order, as the rule-jobs worker would receive them.
 */
export async function ruleStores() {
  const stores = await domainStores();
  const queued: RuleJobMessage[] = [];
  const ruleJobs = { enqueue: async (message: RuleJobMessage) => void queued.push(message) };
  const workspace = (workspaceId?: string) => ({ ...stores.inWorkspace(workspaceId), ruleJobs });
  return { stores, queued, ruleJobs, workspace };
}

export const caller = (w: WorkspaceStores) => editorOf(w.workspaceId, 'alice');

/** A new label of the workspace, by id. */
export const newLabel = async (w: WorkspaceStores) => (await createLabel(w, caller(w), { name: `l-${crypto.randomUUID()}`, color: '#112233' })).id;

/** A rule on content matching any of "invoice"; override what the test is about. */
export const newRule = (overrides: Partial<NewRule> & Pick<NewRule, 'addLabels'>): NewRule => ({
  name: 'rule',
  match: { field: 'content', algorithm: 'any', pattern: 'invoice', case_sensitive: false },
  when: {},
  order: 0,
  ...overrides,
});
