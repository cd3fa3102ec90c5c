import * as z from '../../shared/zod';
import { inWorkspace, type AppContainer } from '../../shared/container/app-container';
import { runApplyRuleStep } from '../../shared/domain/rules/apply-rule-job';
import { logger } from '../../shared/logger';
import { sqsJsonHandler } from '../../shared/queue/sqs-batch';

const stepMessage = z.object({ workspace_id: z.uuid(), rule_id: z.uuid(), job_id: z.uuid() });

/**
 * The rule-jobs worker, fed by the rule-jobs queue: each message is one step of a rule's run over existing
 * documents, which continues from the cursor stored with the rule and queues the next. A malformed message is
 * logged and dropped; a failing step is reported, so SQS delivers it again and it resumes from the same cursor.
 */
export const createRuleJobsHandler = (c: AppContainer, options: { stepDocuments?: number } = {}) =>
  sqsJsonHandler('rule-jobs', stepMessage, async (message) => {
    const started = Date.now();
    const outcome = await runApplyRuleStep(inWorkspace(c, { workspaceId: message.workspace_id }), message, options.stepDocuments);
    logger.info('rule-jobs: step done', { ...message, outcome, ms: Date.now() - started });
  });
