import { login } from '../../shared/domain/auth/login';
import { logout } from '../../shared/domain/auth/logout';
import { refreshSession } from '../../shared/domain/auth/refresh';
import { AppError, unauthorized } from '../../shared/domain/errors';
import { registerUser } from '../../shared/domain/users/register';
import type { AppContainer } from '../../shared/container/app-container';
import { httpHandler } from '../../shared/http/pipeline';
import { json } from '../../shared/http/responses';
import { route } from '../../shared/http/route';
import { loginBody, registerBody } from './schemas';

/** POST /api/auth/{register,login,logout,refresh} and GET /api/auth/oidc/login. */
export const createAuthHandler = (c: AppContainer) =>
  httpHandler({
    corsOrigins: c.corsOrigins,
    authenticate: c.authenticate,
    routes: [
      route({
        key: 'POST /api/auth/register',
        access: 'public',
        body: registerBody,
        handle: async ({ body }) => json(201, await registerUser(c, body)),
      }),
      route({
        key: 'POST /api/auth/login',
        access: 'public',
        body: loginBody,
        handle: async ({ body }) => json(200, await login(c, body)),
      }),
      route({
        key: 'POST /api/auth/logout',
        access: 'viewer',
        handle: async ({ principal }) => {
          await logout(c, principal);
          return json(200, { message: 'Logged out' });
        },
      }),
      route({
        key: 'POST /api/auth/refresh',
        access: 'public',
        handle: async ({ bearerToken }) => {
          if (!bearerToken) throw unauthorized('A bearer token is required');
          return json(200, await refreshSession(c, bearerToken));
        },
      }),
      route({
        key: 'GET /api/auth/oidc/login',
        access: 'public',
        handle: async () => {
          throw new AppError('NOT_FOUND', 'Single sign-on (OIDC) is not configured on this service', {
            feature: 'oidc',
            configured: false,
          });
        },
      }),
    ],
  });
