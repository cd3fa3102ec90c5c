import type { NewWorkspace } from '../workspaces/workspace';
import type { User } from './user';
import type { Role } from '../principal';

/** Fields of the caller's profile that the caller may change. */
export interface ProfileChanges {
  email?: string;
  display_name?: string | null;
}

/** Fields of a member that a workspace admin may change. */
export interface MemberChanges extends ProfileChanges {
  role?: Role;
}

/** The provider's account a user signs in with by single sign-on: unique per (issuer, subject). */
export interface ExternalIdentity {
  issuer: string;
  subject: string;
}

/**
 * Persistence of users. Usernames and emails are unique case-insensitively across the deployment, enforced
 * atomically by the store: create, updateProfile and updateMember throw a DUPLICATE_RESOURCE AppError naming the
 * field that is taken. Every workspace keeps at least one admin, enforced atomically too: updateMember and
 * delete throw a DUPLICATE_RESOURCE AppError (`details.reason = "last_admin"`) rather than remove its last one.
 *
 * A user stored before workspaces existed (no `workspace_id`) is read as a member of the bootstrap workspace
 * (BOOTSTRAP_WORKSPACE_ID) until adoptLegacyUsers stores it so.
 */
export interface NewUserOptions {
  identity?: ExternalIdentity | undefined;
  workspace?: NewWorkspace | undefined;
}

export interface UserRepository {
  /**
   * Stores a new user. With an identity, links it to the user atomically (a linked identity is refused with
   * field `identity`); with a workspace, creates it in the same transaction (a sign-up's own workspace).
   */
  create(user: User, options?: NewUserOptions): Promise<void>;
  /** The user an SSO identity is linked to. */
  findByIdentity(issuer: string, subject: string): Promise<User | null>;
  /** A strongly consistent read: authentication uses it on every request, so a role change holds at once. */
  findById(id: string): Promise<User | null>;
  findByUsername(username: string): Promise<User | null>;
  /** The members of one workspace, oldest first. */
  list(workspaceId: string): Promise<User[]>;
  /** Applies the changes and returns the updated user; null when the user does not exist. */
  updateProfile(id: string, changes: ProfileChanges, updatedAt: string): Promise<User | null>;
  /** Stores a new password hash and bumps token_version, so tokens issued before stop working. */
  updatePassword(id: string, passwordHash: string, updatedAt: string): Promise<User | null>;
  /**
   * Replaces the hash of the same password with one of stronger parameters. Not a password change: token_version
   * stays, so every session goes on. Only while the stored hash is still `currentHash` (a password changed
   * meanwhile is kept); answers whether it was replaced.
   */
  rehashPassword(id: string, currentHash: string, newHash: string): Promise<boolean>;
  /** Changes a member of the workspace; null when no user has this id in this workspace. */
  updateMember(workspaceId: string, id: string, changes: MemberChanges, updatedAt: string): Promise<User | null>;
  /**
   * Removes a member of the workspace with their username, email and settings (the names are free again);
   * answers the removed user, or null when no user has this id in this workspace.
   */
  delete(workspaceId: string, id: string): Promise<User | null>;
  /** Marks the user as the deployment's operator (idempotent). */
  markOperator(id: string): Promise<void>;
  /**
   * Stores every user written without a workspace as a member of the bootstrap workspace, counting its
   * admins; idempotent and safe to run concurrently. Answers how many it moved.
   */
  adoptLegacyUsers(): Promise<number>;
}

/** One-way password hashing; `verify` takes time whether or not the hash matches. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** With a null hash it spends the same time and returns false, so unknown users cannot be told apart by timing. */
  verify(password: string, hash: string | null): Promise<boolean>;
  /** Whether a stored hash was made with weaker parameters than `hash` uses now (so it is to be replaced). */
  needsRehash(hash: string): boolean;
}
