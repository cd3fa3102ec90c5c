import type { WorkspaceRepository } from '../workspaces/ports';
import type { RuleJobQueue, RuleRepository } from './ports';

export interface ResumeRuleRunsDeps {
  workspaces: Pick<WorkspaceRepository, 'list'>;
  forWorkspace(workspaceId: string): { rules: Pick<RuleRepository, 'list'> };
  ruleJobs: RuleJobQueue;
}

/**
 * Queues again the next step of every run left queued or running: for a queue that lives in memory (the local
 * runtime's), which forgot them when the process ended. A step queued twice is done once (see runApplyRuleStep).
 * Returns how many runs were resumed.
 */
export async function resumeRuleRuns(deps: ResumeRuleRunsDeps): Promise<number> {
  let resumed = 0;
  for (const workspace of await deps.workspaces.list()) {
    for (const rule of await deps.forWorkspace(workspace.id).rules.list()) {
      if (rule.apply?.state !== 'queued' && rule.apply?.state !== 'running') continue;
      await deps.ruleJobs.enqueue({ workspace_id: workspace.id, rule_id: rule.id, job_id: rule.apply.job_id });
      resumed++;
    }
  }
  return resumed;
}
