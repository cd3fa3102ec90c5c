import type { Role } from '../principal';

/** A stored user, secrets included. Never leaves the service as is: see {@link toPublicUser}. */
export interface User {
  id: string;
  /** The one workspace the user belongs to; the role holds in it. */
  workspace_id: string;
  username: string;
  email: string;
  role: Role;
  display_name: string | null;
  password_hash: string;
  /** Bumped when every token issued so far must stop working (password change). */
  token_version: number;
  /** Set on the bootstrap admin (ADMIN_USERNAME) only: the deployment's operator, who cannot be demoted or deleted. */
  operator?: boolean;
  created_at: string;
  updated_at: string;
}

export type PublicUser = Omit<User, 'password_hash' | 'token_version' | 'operator'>;

export const toPublicUser = ({ password_hash: _hash, token_version: _version, operator: _operator, ...user }: User): PublicUser =>
  user;
