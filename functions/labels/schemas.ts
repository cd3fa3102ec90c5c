import * as z from '../../shared/zod';
import { visibleNameField } from '../../shared/http/fields';
import { contract, type RouteContracts } from '../../shared/http/route';

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

/** The label routes' contracts, by operation id (the API contract's operationId). */
export const routes = {
  listLabels: contract({ key: 'GET /api/labels', access: 'viewer' }),
  createLabel: contract({ key: 'POST /api/labels', access: 'editor', body: createLabelBody }),
  updateLabel: contract({ key: 'PUT /api/labels/{id}', access: 'editor', params: labelIdParams, body: updateLabelBody }),
  deleteLabel: contract({ key: 'DELETE /api/labels/{id}', access: 'editor', params: labelIdParams }),
  assignLabel: contract({ key: 'POST /api/labels/{id}/assign', access: 'editor', params: labelIdParams, body: assignLabelBody }),
} as const satisfies RouteContracts;
