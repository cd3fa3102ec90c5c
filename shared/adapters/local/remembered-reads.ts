import type { RevokedTokenStore } from '../../domain/auth/ports';
import type { Settings } from '../../domain/settings/settings';
import type { SettingsRepository } from '../../domain/settings/ports';
import type { MemberChanges, NewUserOptions, ProfileChanges, UserRepository } from '../../domain/users/ports';
import type { User } from '../../domain/users/user';
import { ExactReadCache } from './exact-read-cache';

/** The stores every request reads: the caller's user and whether the token was revoked; uploads and OCR runs the settings. */
export interface HotReadStores {
  users: UserRepository;
  settings: SettingsRepository;
  revokedTokens: RevokedTokenStore;
}

/**
 * The local runtime's hot reads, remembered: a user by id, a user's settings and a token's revocation are read
 * from the table once and then from memory, and every write of them (through these wrappers) forgets what it
 * changed (see {@link ExactReadCache}). Authenticating a request then costs no table read.
 *
 * Exact only because the local runtime is one process that makes every write of these items; in the cloud
 * other Lambda instances write them, so the cloud composition reads DynamoDB each time and must not use this.
 * One cache serves the three, since deleting a user deletes their settings too.
 */
export function rememberHotReads(stores: HotReadStores, capacity?: number): HotReadStores {
  const cache = new ExactReadCache<unknown>(capacity);
  return {
    users: new RememberedUsers(stores.users, cache),
    settings: new RememberedSettings(stores.settings, cache),
    revokedTokens: new RememberedRevocations(stores.revokedTokens, cache),
  };
}

const userKey = (id: string) => `user:${id}`;
const settingsKey = (userId: string) => `settings:${userId}`;
const revocationKey = (jti: string) => `revoked:${jti}`;

class RememberedUsers implements UserRepository {
  constructor(
    private readonly inner: UserRepository,
    private readonly cache: ExactReadCache<unknown>,
  ) {}

  findById(id: string): Promise<User | null> {
    return this.cache.read(userKey(id), () => this.inner.findById(id)) as Promise<User | null>;
  }

  findByIdentity(issuer: string, subject: string): Promise<User | null> {
    return this.inner.findByIdentity(issuer, subject);
  }

  findByUsername(username: string): Promise<User | null> {
    return this.inner.findByUsername(username);
  }

  list(workspaceId: string): Promise<User[]> {
    return this.inner.list(workspaceId);
  }

  create(user: User, options?: NewUserOptions): Promise<void> {
    return this.cache.write([userKey(user.id)], () => this.inner.create(user, options));
  }

  updateProfile(id: string, changes: ProfileChanges, updatedAt: string): Promise<User | null> {
    return this.cache.write([userKey(id)], () => this.inner.updateProfile(id, changes, updatedAt));
  }

  updatePassword(id: string, passwordHash: string, updatedAt: string): Promise<User | null> {
    return this.cache.write([userKey(id)], () => this.inner.updatePassword(id, passwordHash, updatedAt));
  }

  rehashPassword(id: string, currentHash: string, newHash: string): Promise<boolean> {
    return this.cache.write([userKey(id)], () => this.inner.rehashPassword(id, currentHash, newHash));
  }

  updateMember(workspaceId: string, id: string, changes: MemberChanges, updatedAt: string): Promise<User | null> {
    return this.cache.write([userKey(id)], () => this.inner.updateMember(workspaceId, id, changes, updatedAt));
  }

  delete(workspaceId: string, id: string): Promise<User | null> {
    return this.cache.write([userKey(id), settingsKey(id)], () => this.inner.delete(workspaceId, id));
  }

  markOperator(id: string): Promise<void> {
    return this.cache.write([userKey(id)], () => this.inner.markOperator(id));
  }

  adoptLegacyUsers(): Promise<number> {
    return this.cache.write(null, () => this.inner.adoptLegacyUsers());
  }
}

class RememberedSettings implements SettingsRepository {
  constructor(
    private readonly inner: SettingsRepository,
    private readonly cache: ExactReadCache<unknown>,
  ) {}

  get(userId: string): Promise<Partial<Settings>> {
    return this.cache.read(settingsKey(userId), () => this.inner.get(userId)) as Promise<Partial<Settings>>;
  }

  update(userId: string, changes: Partial<Settings>, updatedAt: string): Promise<Partial<Settings>> {
    return this.cache.write([settingsKey(userId)], () => this.inner.update(userId, changes, updatedAt));
  }
}

class RememberedRevocations implements RevokedTokenStore {
  constructor(
    private readonly inner: RevokedTokenStore,
    private readonly cache: ExactReadCache<unknown>,
  ) {}

  isRevoked(jti: string): Promise<boolean> {
    return this.cache.read(revocationKey(jti), () => this.inner.isRevoked(jti)) as Promise<boolean>;
  }

  revoke(jti: string, keepUntil: Date): Promise<boolean> {
    return this.cache.write([revocationKey(jti)], () => this.inner.revoke(jti, keepUntil));
  }
}
