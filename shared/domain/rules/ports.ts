import type { Clock } from '../clock';
import type { LabelRepository } from '../labels/ports';
import type { Rule, RuleApplyJob, RuleChanges, RuleDocument } from './rule';

/**
 * A workspace's labelling rules. A count beside them moves with each create and delete, so the limit holds
 * under concurrent creates.
 */
export interface RuleRepository {
  /** Stores the rule unless the workspace already has `limit` rules. */
  create(rule: Rule, limit: number): Promise<'created' | 'limit'>;
  get(id: string): Promise<Rule | null>;
  /** Every rule, ascending by order, ties by creation. */
  list(): Promise<Rule[]>;
  /** Changes the rule; null when there is no such rule. */
  update(id: string, changes: RuleChanges, updatedAt: string): Promise<Rule | null>;
  delete(id: string): Promise<boolean>;
  /**
   * Starts a run over existing documents: null when there is no such rule, `busy` when a run is queued or
   * running. The run's cursor (the last document read) starts empty.
   */
  startApply(id: string, job: RuleApplyJob): Promise<Rule | null | 'busy'>;
  /** The run's state and where it stands: the cursor it continues from (null: the start). */
  applyProgress(id: string): Promise<{ job: RuleApplyJob; cursor: string | null } | null>;
  /**
   * Records a step of a run, on condition that the run is `jobId`, unfinished, and still stands where the step
   * began (`from`: its cursor and documents processed): false when it does not (a step delivered twice records once).
   */
  recordStep(id: string, jobId: string, from: { cursor: string | null; processed: number }, next: { job: RuleApplyJob; cursor: string | null }): Promise<boolean>;
}

/**
 * Matches regular expressions in linear time (RE2): a rule's pattern is a user's, and a backtracking engine
 * could be made to run for ever on it.
 */
export interface RegexEngine {
  /** The reason the pattern is not a valid expression, or null when it is. */
  check(pattern: string): Promise<string | null>;
  /** Whether the pattern matches anywhere in the text; an invalid pattern matches nothing. */
  test(pattern: string, text: string, caseSensitive: boolean): Promise<boolean>;
}

/** The workspace's documents as a run over existing documents reads them: oldest first, from a cursor. */
export interface RuleDocuments {
  /** Up to `limit` documents after the cursor (null: from the first), and the cursor after them (null: no more). */
  page(after: string | null, limit: number): Promise<{ documents: RuleDocument[]; next: string | null }>;
  /** How many documents the workspace has. */
  count(): Promise<number>;
  /** The document's extracted text ('' before any). */
  text(id: string): Promise<string>;
}

/** One step of a run: the message carries the run, the rule's item where it stands. */
export interface RuleJobMessage {
  workspace_id: string;
  rule_id: string;
  job_id: string;
}

/** Hands the steps of runs over existing documents to the rule-jobs workers. */
export interface RuleJobQueue {
  enqueue(message: RuleJobMessage): Promise<void>;
}

/** What applying rules to a document needs: the rules, the regex engine and the labels' assign path. */
export interface RuleApplyDeps {
  rules: Pick<RuleRepository, 'list'>;
  regex: RegexEngine;
  labels: Pick<LabelRepository, 'assign'>;
  clock: Clock;
  /** Where a failure to apply rules is reported: it never fails the upload or the OCR run that applied them. */
  ruleLog: (message: string, fields: Record<string, unknown>) => void;
}

/** What the rule endpoints need. */
export interface RuleDeps {
  rules: RuleRepository;
  regex: RegexEngine;
  labels: Pick<LabelRepository, 'missing'>;
  clock: Clock;
}
