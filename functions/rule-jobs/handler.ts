import * as z from '../../shared/zod';
import type { Clock } from '../../shared/domain/clock';
import type { LabelRepository } from '../../shared/domain/labels/ports';
import type { RegexEngine, RuleDocuments, RuleJobQueue, RuleRepository } from '../../shared/domain/rules/ports';
import { inWorkspace, type WorkspaceScoped } from '../../shared/container/kit/workspace-scope';
import { failApplyRule, runApplyRuleStep } from '../../shared/domain/rules/apply-rule-job';
import { MAX_RECEIVES } from '../../shared/manifest';
import { logger } from '../../shared/observability/logger';
import { sqsJsonHandler } from '../../shared/queue/sqs-batch';

const stepMessage = z.object({ workspace_id: z.uuid(), rule_id: z.uuid(), job_id: z.uuid() });

/** What the rule-jobs worker uses. */
export type RuleJobsDeps = { clock: Clock; regex: RegexEngine; ruleJobs: RuleJobQueue } &
  WorkspaceScoped<{ workspaceId: string; labels: LabelRepository; rules: RuleRepository; ruleDocuments: RuleDocuments }>;

/**
 * The rule-jobs worker, fed by the rule-jobs queue: each message is one step of a rule's run over existing
 * documents, which continues from the cursor stored with the rule and queues the next. A malformed message is
 * logged and dropped; a failing step is reported, so SQS delivers it again and it resumes from the same cursor.
 * On its last delivery the run is marked failed first, so that it does not show `running` for ever.
 */
export const createRuleJobsHandler = (c: RuleJobsDeps, options: { stepDocuments?: number } = {}) =>
  sqsJsonHandler('rule-jobs', stepMessage, async (message, record) => {
    const started = Date.now();
    const deps = inWorkspace(c, { workspaceId: message.workspace_id });
    try {
      const outcome = await runApplyRuleStep(deps, message, options.stepDocuments);
      logger.info('rule-jobs: step done', { ...message, outcome, ms: Date.now() - started });
    } catch (error) {
      if (Number(record.attributes.ApproximateReceiveCount) >= MAX_RECEIVES) await failApplyRule(deps, message).catch(() => undefined);
      throw error;
    }
  });
