import { beforeAll, describe, expect, it } from 'vitest';
import { startApplyRule } from '../../../../shared/domain/rules/apply-rule-job';
import { createRule } from '../../../../shared/domain/rules/create-rule';
import { resumeRuleRuns } from '../../../../shared/domain/rules/resume-rule-runs';
import { caller, newLabel, newRule, ruleStores } from './rule-setup';

describe('resumeRuleRuns', () => {
  let rules: Awaited<ReturnType<typeof ruleStores>>;
  const deps = () => ({ workspaces: rules.stores.workspaces, forWorkspace: rules.workspace, ruleJobs: rules.ruleJobs });

  beforeAll(async () => {
    rules = await ruleStores();
  });

  /** A workspace stored in the table, as the sweep lists them. */
  const storedWorkspace = async () => {
    const w = rules.workspace();
    await rules.stores.workspaces.create({ id: w.workspaceId, name: `ws ${w.workspaceId}`, created_at: new Date().toISOString() });
    return w;
  };

  it('queues again the next step of a run an earlier process left unfinished', async () => {
    // Arrange
    const w = await storedWorkspace();
    const rule = await createRule(w, caller(w), newRule({ addLabels: [await newLabel(w)] }));
    const started = await startApplyRule(w, rule.id);
    rules.queued.length = 0;

    // Act
    await resumeRuleRuns(deps());

    // Assert
    expect(rules.queued).toContainEqual({ workspace_id: w.workspaceId, rule_id: rule.id, job_id: started.job_id });
  });

  it('leaves rules never applied, or whose run ended, alone', async () => {
    // Arrange
    const w = await storedWorkspace();
    const idle = await createRule(w, caller(w), newRule({ addLabels: [await newLabel(w)] }));
    rules.queued.length = 0;

    // Act
    await resumeRuleRuns(deps());

    // Assert
    expect(rules.queued.filter((message) => message.rule_id === idle.id)).toEqual([]);
  });

  it('counts the runs it resumed, across workspaces', async () => {
    // Arrange
    const [one, two] = [await storedWorkspace(), await storedWorkspace()];
    for (const w of [one, two]) await startApplyRule(w, (await createRule(w, caller(w), newRule({ addLabels: [await newLabel(w)] }))).id);
    rules.queued.length = 0;

    // Act
    const resumed = await resumeRuleRuns(deps());

    // Assert
    expect(resumed).toBe(rules.queued.length);
    expect(rules.queued.map((message) => message.workspace_id)).toEqual(expect.arrayContaining([one.workspaceId, two.workspaceId]));
  });
});
