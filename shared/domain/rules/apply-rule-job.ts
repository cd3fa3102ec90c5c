import { conflict, notFound } from '../errors';
import type { LabelRepository } from '../labels/ports';
import type { Clock } from '../clock';
import { matches } from './match';
import type { RegexEngine, RuleDocuments, RuleJobMessage, RuleJobQueue, RuleRepository } from './ports';
import { ruleApplies, type Rule, type RuleApplyJob, type RuleDocument } from './rule';

/** Documents one step reads: a step ends well within a worker's time, and a failed one is cheap to repeat. */
export const APPLY_STEP_DOCUMENTS = 200;
/** The label assignment takes at most this many documents at a time. */
const ASSIGN_BATCH = 100;

export interface ApplyRuleJobDeps {
  rules: RuleRepository;
  ruleDocuments: RuleDocuments;
  ruleJobs: RuleJobQueue;
  regex: RegexEngine;
  labels: Pick<LabelRepository, 'assign'>;
  clock: Clock;
  workspaceId: string;
}

/**
 * Starts a run of the rule over the workspace's existing documents and queues its first step. A rule has one
 * run at a time: 409 while one is queued or running.
 */
export async function startApplyRule(
  deps: Pick<ApplyRuleJobDeps, 'rules' | 'ruleJobs' | 'clock' | 'workspaceId'> & { ruleDocuments: Pick<RuleDocuments, 'count'> },
  id: string,
): Promise<RuleApplyJob> {
  if (!(await deps.rules.get(id))) throw notFound('Rule', id);
  const job: RuleApplyJob = {
    job_id: crypto.randomUUID(),
    state: 'queued',
    processed: 0,
    total: await deps.ruleDocuments.count(),
    labelled: 0,
    started_at: deps.clock.now().toISOString(),
    finished_at: null,
  };
  const started = await deps.rules.startApply(id, job);
  if (!started) throw notFound('Rule', id);
  if (started === 'busy') throw conflict('This rule is already being applied: wait for its run to end', { reason: 'apply_running', id });
  try {
    await deps.ruleJobs.enqueue({ workspace_id: deps.workspaceId, rule_id: id, job_id: job.job_id });
  } catch (error) {
    await deps.rules.recordStep(id, job.job_id, { cursor: null, processed: 0 }, { job: { ...job, state: 'failed', finished_at: deps.clock.now().toISOString() }, cursor: null });
    throw error;
  }
  return job;
}

export type ApplyStepOutcome = 'continued' | 'completed' | 'stale';

/**
 * Runs one step of a run: the next documents after the run's cursor, the rule's labels on those it matches,
 * the progress recorded on condition that no other delivery recorded this step, then the next step queued.
 * A step delivered twice assigns nothing twice (assignment is idempotent) and records once; a run whose rule
 * was deleted, or that a newer run replaced, ends with its message.
 */
export async function runApplyRuleStep(deps: ApplyRuleJobDeps, message: RuleJobMessage, stepDocuments = APPLY_STEP_DOCUMENTS): Promise<ApplyStepOutcome> {
  const [rule, progress] = await Promise.all([deps.rules.get(message.rule_id), deps.rules.applyProgress(message.rule_id)]);
  if (!rule || !progress || progress.job.job_id !== message.job_id) return 'stale';
  if (progress.job.state === 'completed' || progress.job.state === 'failed') return 'stale';
  const { documents, next } = await deps.ruleDocuments.page(progress.cursor, stepDocuments);
  const matched = await matching(deps, rule, documents);
  const labelled = await assign(deps, rule, matched);
  const processed = progress.job.processed + documents.length;
  const job: RuleApplyJob = {
    ...progress.job,
    state: next ? 'running' : 'completed',
    processed,
    total: Math.max(progress.job.total, processed),
    labelled: progress.job.labelled + labelled,
    finished_at: next ? null : deps.clock.now().toISOString(),
  };
  if (!(await deps.rules.recordStep(rule.id, message.job_id, { cursor: progress.cursor, processed: progress.job.processed }, { job, cursor: next }))) return 'stale';
  if (!next) return 'completed';
  await deps.ruleJobs.enqueue(message);
  return 'continued';
}

/**
 * Ends the run `failed`: its step failed on the queue's last delivery (the message goes to the DLQ), so no step
 * follows, and the rule may be applied again.
 */
export async function failApplyRule(deps: Pick<ApplyRuleJobDeps, 'rules' | 'clock'>, message: RuleJobMessage): Promise<void> {
  const progress = await deps.rules.applyProgress(message.rule_id);
  if (!progress || progress.job.job_id !== message.job_id) return;
  const job: RuleApplyJob = { ...progress.job, state: 'failed', finished_at: deps.clock.now().toISOString() };
  await deps.rules.recordStep(message.rule_id, message.job_id, { cursor: progress.cursor, processed: progress.job.processed }, { job, cursor: progress.cursor });
}

async function matching(deps: ApplyRuleJobDeps, rule: Rule, documents: RuleDocument[]): Promise<string[]> {
  const ids: string[] = [];
  for (const document of documents) {
    if (!ruleApplies(rule, document)) continue;
    const field = rule.match.field;
    const value = field === 'content' ? await deps.ruleDocuments.text(document.id) : field === 'filename' ? document.filename : document.title;
    if (await matches(rule.match, value, deps.regex)) ids.push(document.id);
  }
  return ids;
}

/** Puts the rule's labels on the documents; the count of documents that got at least one new label. */
async function assign(deps: ApplyRuleJobDeps, rule: Rule, documentIds: string[]): Promise<number> {
  const labelled = new Set<string>();
  const now = deps.clock.now().toISOString();
  for (const label of rule.add_labels) {
    for (let i = 0; i < documentIds.length; i += ASSIGN_BATCH) {
      const outcome = await deps.labels.assign(label, documentIds.slice(i, i + ASSIGN_BATCH), now);
      for (const id of outcome?.assigned ?? []) labelled.add(id);
    }
  }
  return labelled.size;
}
