import type { User } from './user';

/** Fields of the caller's profile that the caller may change. */
export interface ProfileChanges {
  email?: string;
  display_name?: string | null;
}

/** The provider's account a user signs in with by single sign-on: unique per (issuer, subject). */
export interface ExternalIdentity {
  issuer: string;
  subject: string;
}

/**
 * Persistence of users. Usernames and emails are unique case-insensitively, enforced atomically by the
 * store: create and updateProfile throw a DUPLICATE_RESOURCE AppError naming the field that is taken.
 */
export interface UserRepository {
  /** With an identity, links it to the user atomically; a linked identity is refused with field `identity`. */
  create(user: User, identity?: ExternalIdentity): Promise<void>;
  /** The user an SSO identity is linked to. */
  findByIdentity(issuer: string, subject: string): Promise<User | null>;
  findById(id: string): Promise<User | null>;
  findByUsername(username: string): Promise<User | null>;
  /** All users, oldest first. */
  list(): Promise<User[]>;
  /** Applies the changes and returns the updated user; null when the user does not exist. */
  updateProfile(id: string, changes: ProfileChanges, updatedAt: string): Promise<User | null>;
  /** Stores a new password hash and bumps token_version, so tokens issued before stop working. */
  updatePassword(id: string, passwordHash: string, updatedAt: string): Promise<User | null>;
}
