import { login } from '../../shared/domain/auth/login';
import { logout } from '../../shared/domain/auth/logout';
import { refreshSession } from '../../shared/domain/auth/refresh';
import { AppError, unauthorized } from '../../shared/domain/errors';
import type { Session } from '../../shared/domain/auth/session';
import { completeOidcLogin } from '../../shared/domain/sso/complete-oidc-login';
import { startOidcLogin } from '../../shared/domain/sso/start-oidc-login';
import { registerUser } from '../../shared/domain/users/register';
import type { OidcServices } from '../../shared/container/kit/oidc';
import type { HttpGate, RequestGate } from '../../shared/container/kit/request-gate';
import type { AuthenticationEvents } from '../../shared/domain/audit/ports';
import type { ConnectionRepository } from '../../shared/domain/connections/ports';
import type { QuotaCounts } from '../../shared/domain/quotas/ports';
import type { PasswordHasher } from '../../shared/domain/users/ports';
import type { RegistrationMode } from '../../shared/manifest';
import { httpHandler } from '../../shared/http/pipeline';
import { json, type HttpResponse } from '../../shared/http/responses';
import { route } from '../../shared/http/route';
import { routes } from './schemas';

/** The answer while no provider is configured, on both OIDC routes. */
const oidcNotConfigured = () =>
  new AppError('NOT_FOUND', 'Single sign-on (OIDC) is not configured on this service', { feature: 'oidc', configured: false });

const requireOidc = (c: Pick<AuthDeps, 'oidc'>): OidcServices => {
  if (!c.oidc) throw oidcNotConfigured();
  return c.oidc;
};

/** A redirect that no browser or proxy may keep: it carries a one-time state or a token. */
const redirect = (location: string): HttpResponse => ({
  statusCode: 302,
  headers: { location, 'cache-control': 'no-store' },
});

/** JSON like login, or (with OIDC_FRONTEND_URL) the browser sent to the front end with the token in the fragment. */
const sessionResponse = (oidc: OidcServices, session: Session): HttpResponse => {
  if (!oidc.frontendUrl) return json(200, session, { 'cache-control': 'no-store' });
  const fragment = new URLSearchParams({ token: session.token, expires_at: session.expires_at });
  return redirect(`${oidc.frontendUrl}#${fragment.toString()}`);
};

/** POST /api/auth/{register,login,logout,refresh} and GET /api/auth/oidc/{login,callback}. */
export type AuthDeps = HttpGate &
  Pick<RequestGate, 'clock' | 'loginAttempts' | 'plans' | 'revokedTokens' | 'tokens' | 'users' | 'workspaces' | 'workspaceStatus'> & {
    /** Where logins are recorded: the audit log. */
    authEvents: AuthenticationEvents;
    connections: ConnectionRepository;
    /** Single sign-on; null when no provider is configured (the OIDC routes answer 404). */
    oidc: OidcServices | null;
    passwords: PasswordHasher;
    quotaCounts: QuotaCounts;
    refreshGraceSeconds: number;
    registrationMode: RegistrationMode;
  };

export const createAuthHandler = (c: AuthDeps) =>
  httpHandler({
    corsOrigins: c.corsOrigins,
    edge: c.edge,
    authenticate: c.authenticate,
    limits: c.limits,
    routes: [
      route({
        ...routes.register,
        handle: async ({ body }) => json(201, await registerUser(c, body)),
      }),
      route({
        ...routes.login,
        handle: async ({ body }) => json(200, await login(c, body)),
      }),
      route({
        ...routes.logout,
        handle: async ({ principal }) => {
          await logout(c, principal);
          return json(200, { message: 'Logged out' });
        },
      }),
      route({
        ...routes.refreshToken,
        handle: async ({ bearerToken }) => {
          if (!bearerToken) throw unauthorized('A bearer token is required');
          return json(200, await refreshSession(c, bearerToken));
        },
      }),
      route({
        ...routes.startOidcLogin,
        handle: async () => {
          const oidc = requireOidc(c);
          return redirect((await startOidcLogin({ clock: c.clock, oidc })).redirectTo);
        },
      }),
      route({
        ...routes.completeOidcLogin,
        handle: async ({ query }) => {
          const oidc = requireOidc(c);
          return sessionResponse(oidc, await completeOidcLogin({ ...c, oidc, quotas: c }, query));
        },
      }),
    ],
  });
