import { forbidden } from '../errors';
import type { Clock } from '../clock';
import type { PasswordHasher, UserRepository } from './ports';
import type { RegistrationMode } from '../../manifest';
import type { NewWorkspace } from '../workspaces/workspace';
import { toPublicUser, type PublicUser, type User } from './user';
import type { Role } from '../principal';

export interface RegisterDeps {
  users: UserRepository;
  passwords: PasswordHasher;
  clock: Clock;
  registrationMode: RegistrationMode;
}

export interface NewUser {
  username: string;
  email: string;
  password: string;
  display_name?: string | null | undefined;
}

/**
 * Self-service sign-up (REGISTRATION_MODE). `workspace`: the new user gets a new, empty workspace, created in
 * the same transaction, and is its admin. `closed`: refused with 403.
 */
export async function registerUser(deps: RegisterDeps, input: NewUser): Promise<PublicUser> {
  if (deps.registrationMode === 'closed') {
    throw forbidden('Registration is closed on this service', { registration: 'closed' });
  }
  const workspace = { id: crypto.randomUUID(), name: `${input.username}'s workspace`, created_at: deps.clock.now().toISOString() };
  return toPublicUser(await createUser(deps, input, 'admin', workspace.id, {}, workspace));
}

/** Stores a new member of a workspace with a hashed password; the repository refuses a taken username or email. */
export async function createUser(
  deps: Omit<RegisterDeps, 'registrationMode'>,
  input: NewUser,
  role: Role,
  workspaceId: string,
  extra: Pick<User, 'operator'> = {},
  /** A workspace to create with the user (a sign-up's own). */
  newWorkspace?: NewWorkspace,
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
  await deps.users.create(user, { workspace: newWorkspace });
  return user;
}
