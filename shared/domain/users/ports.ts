import type { User } from './user';

/** Fields of the caller's profile that the caller may change. */
export interface ProfileChanges {
  email?: string;
  display_name?: string | null;
}

/**
 * Persistence of users. Usernames and emails are unique case-insensitively, enforced atomically by the
 * store: create and updateProfile throw a DUPLICATE_RESOURCE AppError naming the field that is taken.
 */
export interface UserRepository {
  create(user: User): Promise<void>;
  findById(id: string): Promise<User | null>;
  findByUsername(username: string): Promise<User | null>;
  /** All users, oldest first. */
  list(): Promise<User[]>;
  /** Applies the changes and returns the updated user; null when the user does not exist. */
  updateProfile(id: string, changes: ProfileChanges, updatedAt: string): Promise<User | null>;
  /** Stores a new password hash and bumps token_version, so tokens issued before stop working. */
  updatePassword(id: string, passwordHash: string, updatedAt: string): Promise<User | null>;
}
