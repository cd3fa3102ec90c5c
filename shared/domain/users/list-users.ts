import { pageOf, type Page, type PageRequest } from '../pagination';
import type { UserRepository } from './ports';
import { toPublicUser, type PublicUser } from './user';

/** One page of the users of a workspace, oldest first. Admins only: the route requires the admin role. */
export async function listUsers(
  deps: { users: UserRepository },
  workspaceId: string,
  request: PageRequest,
): Promise<Page<PublicUser>> {
  const all = await deps.users.list(workspaceId);
  const start = (request.page - 1) * request.perPage;
  return pageOf(all.slice(start, start + request.perPage).map(toPublicUser), request, all.length);
}
