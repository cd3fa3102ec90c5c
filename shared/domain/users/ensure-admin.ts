import { createUser, type RegisterDeps } from './register';

export interface AdminAccount {
  username: string;
  email: string;
  password: string;
}

/**
 * Creates the configured first admin when no user has its username; does nothing otherwise, so a restart or a
 * redeploy never resets a password the admin has since changed. Returns whether the admin was created.
 */
export async function ensureAdmin(deps: Omit<RegisterDeps, 'registrationOpen'>, admin: AdminAccount): Promise<boolean> {
  if (await deps.users.findByUsername(admin.username)) return false;
  try {
    await createUser(deps, admin, 'admin');
    return true;
  } catch (error) {
    // Another instance won the race to create it: the admin exists, which is all this asks for.
    if (await deps.users.findByUsername(admin.username)) return false;
    throw error;
  }
}
