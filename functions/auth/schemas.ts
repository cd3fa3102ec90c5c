import * as z from '../../shared/zod';
import { displayNameField, emailField, passwordField, usernameField } from '../../shared/http/fields';
import { contract, type RouteContracts } from '../../shared/http/route';

// Each route's schema is built when the route is first used (z.lazy): a cold start builds only its route's.

export const registerBody = z.lazy(() =>
  z.strictObject({
    username: usernameField(),
    email: emailField(),
    password: passwordField(),
    display_name: z.optional(displayNameField()),
  }),
);

/** Login checks only shape and size: the rules of today must not lock out accounts made under older ones. */
export const loginBody = z.lazy(() =>
  z.strictObject({
    username: z.string().check(z.minLength(1), z.maxLength(256)),
    password: z.string().check(z.minLength(1), z.maxLength(256)),
  }),
);

/**
 * What the identity provider appends to the redirect URI: a code and state, or an error. Providers add
 * parameters of their own (`session_state`, Google's `scope`, `authuser`, `hd`, `prompt`), and the browser
 * merely relays them, so unknown parameters are ignored here rather than refused.
 */
export const oidcCallbackQuery = z.lazy(() =>
  z.object({
    code: z.optional(z.string().check(z.minLength(1), z.maxLength(4096))),
    state: z.optional(z.string().check(z.minLength(1), z.maxLength(512))),
    iss: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
    error: z.optional(z.string().check(z.minLength(1), z.maxLength(256))),
    error_description: z.optional(z.string().check(z.maxLength(1024))),
  }),
);

/** The auth routes' contracts, by operation id (the API contract's operationId). */
export const routes = {
  register: contract({ key: 'POST /api/auth/register', access: 'public', body: registerBody }),
  login: contract({ key: 'POST /api/auth/login', access: 'public', body: loginBody }),
  // An API token is not a session: it is deleted (DELETE /api/tokens/{id}), not logged out.
  logout: contract({ key: 'POST /api/auth/logout', access: 'viewer', session: true }),
  // Public: an expired token (within its refresh grace) is refreshed, so the handler checks the token itself.
  refreshToken: contract({ key: 'POST /api/auth/refresh', access: 'public' }),
  startOidcLogin: contract({ key: 'GET /api/auth/oidc/login', access: 'public' }),
  completeOidcLogin: contract({ key: 'GET /api/auth/oidc/callback', access: 'public', query: oidcCallbackQuery }),
} as const satisfies RouteContracts;
