/** What a rule reads of a document. */
export const RULE_FIELDS = ['content', 'filename', 'title'] as const;
export type RuleField = (typeof RULE_FIELDS)[number];

/** How a rule's pattern is matched (see match.ts). */
export const MATCH_ALGORITHMS = ['any', 'all', 'exact', 'regex', 'fuzzy'] as const;
export type MatchAlgorithm = (typeof MATCH_ALGORITHMS)[number];

/** Longest pattern, in characters: bounds the matching work per document. */
export const MAX_PATTERN_LENGTH = 1000;
/** Most rules per workspace: every new document is read against each of them. */
export const MAX_RULES_PER_WORKSPACE = 100;
/** Most labels one rule adds. */
export const MAX_RULE_LABELS = 20;

export interface RuleMatch {
  field: RuleField;
  algorithm: MatchAlgorithm;
  pattern: string;
  case_sensitive: boolean;
}

/** Which documents a rule looks at; an absent condition lets every document through. */
export interface RuleWhen {
  source_id?: string | null | undefined;
  mime_types?: string[] | undefined;
}

export const APPLY_STATES = ['queued', 'running', 'completed', 'failed'] as const;
export type ApplyState = (typeof APPLY_STATES)[number];

/** The last run of a rule over the workspace's existing documents. */
export interface RuleApplyJob {
  job_id: string;
  state: ApplyState;
  /** Documents read so far, of `total` (counted when the run started; documents added since may be read too). */
  processed: number;
  total: number;
  /** Documents the run put at least one new label on. */
  labelled: number;
  started_at: string;
  finished_at: string | null;
}

/** A labelling rule: documents whose field matches get its labels. */
export interface Rule {
  id: string;
  name: string;
  match: RuleMatch;
  when: RuleWhen;
  add_labels: string[];
  order: number;
  created_by: string;
  created_at: string;
  updated_at: string;
  apply: RuleApplyJob | null;
}

export interface RuleChanges {
  name?: string | undefined;
  match?: RuleMatch | undefined;
  when?: RuleWhen | undefined;
  add_labels?: string[] | undefined;
  order?: number | undefined;
}

/** What a rule is matched against: a document's fields (its text apart, read only when a rule needs it). */
export interface RuleDocument {
  id: string;
  title: string;
  filename: string;
  mime_type: string;
  source_id: string | null;
}

/** Rules ascending by order, ties by creation. */
export const byOrder = (a: Rule, b: Rule): number => a.order - b.order || a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id);

/** Whether the rule's conditions let the document through. */
export const ruleApplies = (rule: Rule, document: RuleDocument): boolean =>
  (rule.when.source_id === undefined || rule.when.source_id === document.source_id) &&
  (!rule.when.mime_types?.length || rule.when.mime_types.includes(document.mime_type));
