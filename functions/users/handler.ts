import { changePassword } from '../../shared/domain/users/change-password';
import { listUsers } from '../../shared/domain/users/list-users';
import { getProfile, updateProfile } from '../../shared/domain/users/profile';
import type { AppContainer } from '../../shared/container/app-container';
import { pageQuery } from '../../shared/http/fields';
import { httpHandler } from '../../shared/http/pipeline';
import { json } from '../../shared/http/responses';
import { route } from '../../shared/http/route';
import { changePasswordBody, updateProfileBody } from './schemas';

/** GET /api/users (admins), GET/PUT /api/users/profile and POST /api/users/change-password (the caller). */
export const createUsersHandler = (c: AppContainer) =>
  httpHandler({
    corsOrigins: c.corsOrigins,
    authenticate: c.authenticate,
    limits: c.limits,
    routes: [
      route({
        key: 'GET /api/users',
        access: 'admin',
        query: pageQuery,
        handle: async ({ query }) => json(200, await listUsers(c, { page: query.page, perPage: query.per_page })),
      }),
      route({
        key: 'GET /api/users/profile',
        access: 'viewer',
        handle: async ({ principal }) => json(200, await getProfile(c, principal.userId)),
      }),
      route({
        key: 'PUT /api/users/profile',
        access: 'viewer',
        body: updateProfileBody,
        handle: async ({ principal, body }) => json(200, await updateProfile(c, principal.userId, body)),
      }),
      route({
        key: 'POST /api/users/change-password',
        access: 'viewer',
        body: changePasswordBody,
        handle: async ({ principal, body }) => {
          const session = await changePassword(c, principal.userId, body);
          return json(200, { message: 'Password changed; tokens issued before now no longer work', ...session });
        },
      }),
    ],
  });
