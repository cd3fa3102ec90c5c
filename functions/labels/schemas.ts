import * as z from '../../shared/zod';
import { visibleNameField } from '../../shared/http/fields';
import { contract, type RouteContracts } from '../../shared/http/route';
import { MATCH_ALGORITHMS, MAX_PATTERN_LENGTH, MAX_RULE_LABELS, RULE_FIELDS } from '../../shared/domain/rules/rule';
import { SUPPORTED_MIME_TYPES } from '../../shared/domain/documents/file-type';

// Each route's schema is built when the route is first used (z.lazy): a cold start builds only its route's.

export const labelIdParams = z.lazy(() => z.strictObject({ id: z.uuid('must be a label id (UUID)') }));

const color = () => z.string().check(z.regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour of the form #RRGGBB'));
const description = () => z.nullable(z.string().check(z.trim(), z.maxLength(1000)));

export const createLabelBody = z.lazy(() =>
  z.strictObject({ name: visibleNameField(), color: color(), description: z.optional(description()) }),
);

export const updateLabelBody = z.lazy(() =>
  z
    .partial(z.strictObject({ name: visibleNameField(), color: color(), description: description() }))
    .check(
      z.refine((body) => Object.keys(body).length > 0, { message: 'give at least one of name, color, description' }),
    ),
);

export const assignLabelBody = z.lazy(() =>
  z.strictObject({
    document_ids: z.array(z.uuid('must be a document id (UUID)')).check(z.minLength(1), z.maxLength(100)),
  }),
);

export const ruleIdParams = z.lazy(() => z.strictObject({ id: z.uuid('must be a rule id (UUID)') }));

const ruleMatch = () =>
  z.strictObject({
    field: z.enum(RULE_FIELDS),
    algorithm: z.enum(MATCH_ALGORITHMS),
    pattern: z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(MAX_PATTERN_LENGTH)),
    case_sensitive: z._default(z.boolean(), false),
  });
const ruleWhen = () =>
  z.strictObject({
    source_id: z.optional(z.nullable(z.uuid('must be a source id (UUID)'))),
    mime_types: z.optional(z.array(z.enum(SUPPORTED_MIME_TYPES)).check(z.maxLength(SUPPORTED_MIME_TYPES.length))),
  });
const addLabels = () => z.array(z.uuid('must be a label id (UUID)')).check(z.minLength(1), z.maxLength(MAX_RULE_LABELS));
const order = () => z.number().check(z.int(), z.gte(-1_000_000), z.lte(1_000_000));

export const createRuleBody = z.lazy(() =>
  z.strictObject({ name: visibleNameField(), match: ruleMatch(), when: z._default(ruleWhen(), {}), add_labels: addLabels(), order: z._default(order(), 0) }),
);

export const updateRuleBody = z.lazy(() =>
  z
    .partial(z.strictObject({ name: visibleNameField(), match: ruleMatch(), when: ruleWhen(), add_labels: addLabels(), order: order() }))
    .check(z.refine((body) => Object.keys(body).length > 0, { message: 'give at least one of name, match, when, add_labels, order' })),
);

/** The label routes' contracts, by operation id (the API contract's operationId). */
export const routes = {
  listLabels: contract({ key: 'GET /api/labels', access: 'viewer' }),
  createLabel: contract({ key: 'POST /api/labels', access: 'editor', body: createLabelBody }),
  updateLabel: contract({ key: 'PUT /api/labels/{id}', access: 'editor', params: labelIdParams, body: updateLabelBody }),
  deleteLabel: contract({ key: 'DELETE /api/labels/{id}', access: 'editor', params: labelIdParams }),
  assignLabel: contract({ key: 'POST /api/labels/{id}/assign', access: 'editor', params: labelIdParams, body: assignLabelBody }),
  listRules: contract({ key: 'GET /api/rules', access: 'viewer' }),
  createRule: contract({ key: 'POST /api/rules', access: 'editor', body: createRuleBody }),
  updateRule: contract({ key: 'PUT /api/rules/{id}', access: 'editor', params: ruleIdParams, body: updateRuleBody }),
  deleteRule: contract({ key: 'DELETE /api/rules/{id}', access: 'editor', params: ruleIdParams }),
  applyRule: contract({ key: 'POST /api/rules/{id}/apply', access: 'editor', params: ruleIdParams }),
} as const satisfies RouteContracts;
