import * as z from '../../../shared/zod';
import { APPLY_STATES, MATCH_ALGORITHMS, RULE_FIELDS } from '../../../shared/domain/rules/rule';
import { SUPPORTED_MIME_TYPES } from '../../../shared/domain/documents/file-type';
import { id, shape, timestamp } from './registry';

/** A run of a rule over the workspace's existing documents (`POST /api/rules/{id}/apply`). */
export const RuleApplyJob = shape(
  'RuleApplyJob',
  "A run of a rule over the workspace's existing documents, in steps of 200 documents.",
  z.strictObject({
    job_id: id(),
    state: z.enum(APPLY_STATES),
    processed: z.int().check(z.gte(0), z.describe('Documents read so far.')),
    total: z.int().check(z.gte(0), z.describe('Documents the workspace had when the run started (documents added since are read too, and counted here).')),
    labelled: z.int().check(z.gte(0), z.describe('Documents the run put at least one new label on.')),
    started_at: timestamp(),
    finished_at: z.nullable(timestamp()),
  }),
);

export const Rule = shape(
  'Rule',
  'A labelling rule: documents whose field matches the pattern get its labels.',
  z.strictObject({
    id: id(),
    name: z.string(),
    match: z.strictObject({
      field: z.enum(RULE_FIELDS),
      algorithm: z.enum(MATCH_ALGORITHMS),
      pattern: z.string(),
      case_sensitive: z.boolean(),
    }),
    when: z.strictObject({
      source_id: z.optional(z.nullable(id())),
      mime_types: z.optional(z.array(z.enum(SUPPORTED_MIME_TYPES))),
    }),
    add_labels: z.array(id()),
    order: z.int(),
    created_by: z.string(),
    created_at: timestamp(),
    updated_at: timestamp(),
    apply: z.nullable(RuleApplyJob).check(z.describe('The last run over existing documents; null before any.')),
  }),
);

export const RuleList = shape('RuleList', "The workspace's rules, ascending by order, ties by creation.", z.strictObject({ rules: z.array(Rule) }));
