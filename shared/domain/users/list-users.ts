import { pageOf, type Page, type PageRequest } from '../pagination';
import type { UserRepository } from './ports';
import { toPublicUser, type PublicUser } from './user';

/** One page of all users, oldest first. Admins only: the route requires the admin role. */
export async function listUsers(deps: { users: UserRepository }, request: PageRequest): Promise<Page<PublicUser>> {
  const all = await deps.users.list();
  const start = (request.page - 1) * request.perPage;
  return pageOf(all.slice(start, start + request.perPage).map(toPublicUser), request, all.length);
}
