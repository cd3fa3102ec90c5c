import * as z from '../../shared/zod';
import { MONTH_PATTERN } from '../../shared/domain/usage/usage';
import { ROLES } from '../../shared/domain/principal';
import { TOKEN_SCOPES } from '../../shared/domain/tokens/ports';
import { booleanField, displayNameField, emailField, pageQuery, passwordField, usernameField, visibleNameField } from '../../shared/http/fields';
import { contract, type RouteContracts } from '../../shared/http/route';

// Each route's schema is built when the route is first used (z.lazy): a cold start builds only its route's.

export const updateProfileBody = z.lazy(() =>
  z.strictObject({ email: z.optional(emailField()), display_name: z.optional(displayNameField()) }).check(
    z.refine((body) => body.email !== undefined || body.display_name !== undefined, {
      message: 'give at least one of email, display_name',
    }),
  ),
);

export const changePasswordBody = z.lazy(() =>
  z.strictObject({
    current_password: z.string().check(z.minLength(1), z.maxLength(256)),
    new_password: passwordField(),
  }),
);

export const userIdParams = z.lazy(() => z.strictObject({ id: z.uuid('must be a user id (UUID)') }));

const roleField = () => z.enum(ROLES, 'must be one of admin, editor, viewer');

export const createUserBody = z.lazy(() =>
  z.strictObject({
    username: usernameField(),
    email: emailField(),
    password: passwordField(),
    role: roleField(),
    display_name: z.optional(displayNameField()),
  }),
);

export const updateUserBody = z.lazy(() =>
  z
    .strictObject({
      role: z.optional(roleField()),
      email: z.optional(emailField()),
      display_name: z.optional(displayNameField()),
    })
    .check(
      z.refine((body) => body.role !== undefined || body.email !== undefined || body.display_name !== undefined, {
        message: 'give at least one of role, email, display_name',
      }),
    ),
);

/** `?month=YYYY-MM` (a calendar month, UTC); absent: the current month. */
export const usageQuery = z.lazy(() =>
  z.strictObject({
    month: z.optional(z.string().check(z.regex(MONTH_PATTERN, 'must be a month as YYYY-MM'))),
  }),
);

/** `{name, scopes, expires_at?}`: a personal API token to make (see shared/domain/tokens/create-token.ts). */
export const createTokenBody = z.lazy(() =>
  z.strictObject({
    name: visibleNameField(),
    scopes: z
      .array(z.enum(TOKEN_SCOPES, 'must be one of read, write, admin'))
      .check(
        z.minLength(1, 'give at least one scope'),
        z.maxLength(TOKEN_SCOPES.length),
        z.refine((scopes) => new Set(scopes).size === scopes.length, 'must not repeat a scope'),
      ),
    expires_at: z.optional(z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time with a time zone' })),
  }),
);

/** `?all=true`: every token of the workspace (its admins only). */
export const listTokensQuery = z.lazy(() => z.strictObject({ all: z._default(booleanField(), false) }));

export const tokenIdParams = z.lazy(() => z.strictObject({ id: z.uuid('must be a token id (UUID)') }));

/** The users and usage routes' contracts, by operation id (the API contract's operationId). */
export const routes = {
  listUsers: contract({ key: 'GET /api/users', access: 'admin', query: pageQuery }),
  // Managing users, the password and API tokens needs a session: a leaked API token can do none of it.
  createUser: contract({ key: 'POST /api/users', access: 'admin', session: true, body: createUserBody }),
  updateUser: contract({ key: 'PUT /api/users/{id}', access: 'admin', session: true, params: userIdParams, body: updateUserBody }),
  deleteUser: contract({ key: 'DELETE /api/users/{id}', access: 'admin', session: true, params: userIdParams }),
  getProfile: contract({ key: 'GET /api/users/profile', access: 'viewer' }),
  updateProfile: contract({ key: 'PUT /api/users/profile', access: 'viewer', body: updateProfileBody }),
  changePassword: contract({ key: 'POST /api/users/change-password', access: 'viewer', session: true, body: changePasswordBody }),
  listTokens: contract({ key: 'GET /api/tokens', access: 'viewer', session: true, query: listTokensQuery }),
  createToken: contract({ key: 'POST /api/tokens', access: 'viewer', session: true, body: createTokenBody }),
  deleteToken: contract({ key: 'DELETE /api/tokens/{id}', access: 'viewer', session: true, params: tokenIdParams }),
  getUsage: contract({ key: 'GET /api/usage', access: 'admin', query: usageQuery }),
  // Every workspace's usage: the operator's, not a workspace admin's.
  listWorkspaceUsage: contract({ key: 'GET /api/usage/workspaces', access: 'operator', query: usageQuery }),
} as const satisfies RouteContracts;
