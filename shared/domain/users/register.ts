import { forbidden } from '../errors';
import type { Clock } from '../clock';
import type { PasswordHasher } from '../auth/ports';
import type { UserRepository } from './ports';
import { BOOTSTRAP_WORKSPACE_ID } from '../workspaces/workspace';
import { toPublicUser, type PublicUser, type Role, type User } from './user';

export interface RegisterDeps {
  users: UserRepository;
  passwords: PasswordHasher;
  clock: Clock;
  registrationOpen: boolean;
}

export interface NewUser {
  username: string;
  email: string;
  password: string;
  display_name?: string | null | undefined;
}

/**
 * Self-service sign-up: allowed only while registration is open, and always as a viewer of the bootstrap
 * workspace (until workspaces isolate data, a new workspace per sign-up would gain nothing).
 */
export async function registerUser(deps: RegisterDeps, input: NewUser): Promise<PublicUser> {
  if (!deps.registrationOpen) {
    throw forbidden('Registration is closed on this service', { registration: 'closed' });
  }
  return toPublicUser(await createUser(deps, input, 'viewer', BOOTSTRAP_WORKSPACE_ID));
}

/** Stores a new member of a workspace with a hashed password; the repository refuses a taken username or email. */
export async function createUser(
  deps: Omit<RegisterDeps, 'registrationOpen'>,
  input: NewUser,
  role: Role,
  workspaceId: string,
  extra: Pick<User, 'operator'> = {},
): Promise<User> {
  const now = deps.clock.now().toISOString();
  const user: User = {
    id: crypto.randomUUID(),
    workspace_id: workspaceId,
    username: input.username,
    email: input.email,
    role,
    display_name: input.display_name ?? null,
    password_hash: await deps.passwords.hash(input.password),
    token_version: 0,
    created_at: now,
    updated_at: now,
    ...extra,
  };
  await deps.users.create(user);
  return user;
}
