import type { routes } from '../../../functions/labels/schemas';
import type { GroupDocs } from '../operation-docs';
import { Label, LabelAssignment, LabelList } from '../shapes/labels';
import { Rule, RuleApplyJob, RuleList } from '../shapes/rules';

const label = {
  id: '6f1c2b1e-3a4d-4e5f-8a9b-0c1d2e3f4a5b',
  name: 'Invoices',
  color: '#1e88e5',
  description: 'Bills to pay',
  document_count: 12,
  created_by: '0b7e3c52-9d1a-4f6e-8c2b-5a4d3e2f1a0b',
  created_at: '2026-11-02T09:30:00.000Z',
  updated_at: '2026-11-02T09:30:00.000Z',
};

const rule = {
  id: '3c2b1a0f-9e8d-4c7b-8a6f-5e4d3c2b1a0f',
  name: 'Invoices by content',
  match: { field: 'content', algorithm: 'any', pattern: 'invoice rechnung', case_sensitive: false },
  when: { mime_types: ['application/pdf'] },
  add_labels: [label.id],
  order: 10,
  created_by: 'alice',
  created_at: '2026-11-02T09:30:00.000Z',
  updated_at: '2026-11-02T09:30:00.000Z',
  apply: null,
};

const applyJob = {
  job_id: '7d6c5b4a-3f2e-4d1c-9b0a-8f7e6d5c4b3a',
  state: 'running',
  processed: 400,
  total: 1250,
  labelled: 37,
  started_at: '2026-11-02T10:00:00.000Z',
  finished_at: null,
};

const ruleRequest = { name: rule.name, match: rule.match, when: rule.when, add_labels: rule.add_labels, order: rule.order };

export const labelsDocs: GroupDocs<typeof routes> = {
  listLabels: {
    summary: "List the workspace's labels",
    description: "Every label of the caller's workspace, ordered by name, with how many documents carry each (`document_count`, exact: it moves in the same write as each assignment). Not paginated.",
    responses: { 200: { description: 'The labels.', schema: LabelList, example: { labels: [label] } } },
  },
  createLabel: {
    summary: 'Create a label',
    description: 'Names are unique in a workspace, compared without regard to case (a name another label has in any case is 409). The colour is `#RRGGBB` and is stored in lower case; `description` is optional.',
    requestExample: { name: 'Invoices', color: '#1e88e5', description: 'Bills to pay' },
    responses: { 201: { description: 'The label created.', schema: Label, example: { ...label, document_count: 0 } } },
    errors: [{ code: 'DUPLICATE_RESOURCE', when: 'a label of the workspace already has this name' }],
  },
  updateLabel: {
    summary: 'Change a label',
    description: 'Give at least one of name, color, description; `description: null` clears it. After a rename, searches and filtered listings find its documents by the new name once the search index has followed the change (a moment later).',
    requestExample: { color: '#e53935' },
    responses: { 200: { description: 'The label as changed.', schema: Label, example: { ...label, color: '#e53935' } } },
    errors: [{ code: 'DUPLICATE_RESOURCE', when: 'another label of the workspace has the new name' }],
  },
  deleteLabel: {
    summary: 'Delete a label',
    description: 'The label is taken off every document that carried it; searches and filtered listings follow a moment later.',
    responses: { 204: { description: 'Deleted.' } },
  },
  assignLabel: {
    summary: 'Put a label on documents',
    description:
      'Assigns the label to up to 100 documents at once and says, per document, whether it was assigned, already carried it, or is not a document of the workspace. Ids are deduplicated.',
    requestExample: { document_ids: ['9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d'] },
    responses: {
      200: {
        description: 'What happened to each document.',
        schema: LabelAssignment,
        example: { assigned: ['9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d'], already_assigned: [], not_found: [] },
      },
    },
  },
  listRules: {
    summary: "List the workspace's labelling rules",
    description:
      "Every rule of the caller's workspace, ascending by `order`, ties by creation, each with its last run over existing documents (`apply`: its state and progress; poll this to follow a run). Not paginated: a workspace has at most 100 rules.",
    responses: { 200: { description: 'The rules.', schema: RuleList, example: { rules: [{ ...rule, apply: { ...applyJob, state: 'completed', processed: 1250, finished_at: '2026-11-02T10:01:10.000Z' } }] } } },
  },
  createRule: {
    summary: 'Create a labelling rule',
    description: [
      'A new document gets the rule\'s labels (`add_labels`) when `match.field` matches `match.pattern`: rules on `filename` and `title` as the document is created (upload, presigned upload, source sync), rules on `content` once its text is known (OCR done, or a PDF\'s text layer read). The labels are ordinary assignments. `when` narrows the documents a rule looks at (`source_id`: null for documents not from a source; `mime_types`).',
      '',
      'Algorithms: `any`, one of the pattern\'s words is a word of the field; `all`, every one is; `exact`, the pattern appears as written (runs of whitespace count as one space); `regex`, an RE2 regular expression (linear time; no backreferences or lookaround) matches somewhere; `fuzzy`, every word of the pattern is within a few edits of a word of the field (none for words up to 3 characters, one up to 7, two beyond). Words are runs of letters and digits. Case is ignored unless `case_sensitive`.',
      '',
      'The pattern is at most 1,000 characters; an invalid regular expression is 400 on `match.pattern` with RE2\'s reason. Labels must exist (400 naming the unknown ids). A workspace has at most 100 rules (409, `details.reason = "rule_limit"`). Editors and admins.',
    ].join('\n'),
    requestExample: ruleRequest,
    responses: { 201: { description: 'The rule created.', schema: Rule, example: rule } },
    errors: [{ code: 'DUPLICATE_RESOURCE', when: 'the workspace has 100 rules already (`details.reason = "rule_limit"`)' }],
  },
  updateRule: {
    summary: 'Change a labelling rule',
    description: 'Give at least one of name, match, when, add_labels, order; `match` and `when` are replaced whole. Labels already added stay; the rule applies as changed from now on (run it over existing documents with `POST /api/rules/{id}/apply`).',
    requestExample: { order: 5 },
    responses: { 200: { description: 'The rule as changed.', schema: Rule, example: { ...rule, order: 5 } } },
  },
  deleteRule: {
    summary: 'Delete a labelling rule',
    description: 'The labels it added stay on their documents; a run of it over existing documents stops at its next step.',
    responses: { 204: { description: 'Deleted.' } },
  },
  applyRule: {
    summary: "Run a rule over the workspace's existing documents",
    description:
      "Starts a run of the rule over every document of the workspace, oldest first, in steps of 200 documents on a queue, and answers at once with the run (`queued`). Its progress is the rule's `apply` in `GET /api/rules` (`running`, then `completed`, or `failed`); documents it matches get the rule's labels as ordinary assignments. One run per rule at a time: 409 (`details.reason = \"apply_running\"`) while one is queued or running.",
    responses: { 202: { description: 'The run, queued.', schema: RuleApplyJob, example: { ...applyJob, state: 'queued', processed: 0, labelled: 0 } } },
    errors: [{ code: 'DUPLICATE_RESOURCE', when: 'a run of this rule is queued or running' }],
  },
};
