import { DynamoApiTokenRepository } from '../../../../shared/adapters/aws/dynamodb/api-token-repository';
import { DynamoConnectionRepository } from '../../../../shared/adapters/aws/dynamodb/connection-repository';
import { DynamoLegacyItemAdopter } from '../../../../shared/adapters/aws/dynamodb/legacy-item-adoption';
import { DynamoNotificationRepository } from '../../../../shared/adapters/aws/dynamodb/notification-repository';
import { DynamoQuotaCounts } from '../../../../shared/adapters/aws/dynamodb/quota-counts';
import { DynamoRateLimitStore } from '../../../../shared/adapters/aws/dynamodb/rate-limit-store';
import { DynamoRevokedTokenStore } from '../../../../shared/adapters/aws/dynamodb/revoked-token-store';
import { DynamoSettingsRepository } from '../../../../shared/adapters/aws/dynamodb/settings-repository';
import { DynamoUserRepository } from '../../../../shared/adapters/aws/dynamodb/user-repository';
import { DynamoWorkspaceRepository } from '../../../../shared/adapters/aws/dynamodb/workspace-repository';
import { Argon2idPasswordHasher } from '../../../../shared/adapters/crypto/argon2id-password-hasher';
import { JoseTokenService } from '../../../../shared/adapters/jwt/jose-token-service';
import { authenticate } from '../../../../shared/domain/auth/authenticate';
import { login } from '../../../../shared/domain/auth/login';
import { createUser } from '../../../../shared/domain/users/register';
import { checkLoginAllowed, recordLoginFailure } from '../../../../shared/domain/limits/login-failures';
import { RequestLimiter } from '../../../../shared/domain/limits/take-request';
import type { Principal, Role } from '../../../../shared/domain/principal';
import { UNLIMITED_CATALOG, type PlanCatalog } from '../../../../shared/domain/quotas/plans';
import { freshTable } from '../../../support/aws-resources';
import { ManualClock } from '../../../support/builders';
import { TEST_JWT_KEY } from '../../../support/test-kit';

/** A token lifetime and refresh grace window for these tests. */
export const TTL_SECONDS = 3600;
export const GRACE_SECONDS = 86_400;

/** A cheap Argon2id cost (1 MiB, 1 pass): the hasher's rules are the same at any cost. */
const TEST_ARGON2ID = { m: 1024, t: 1, p: 1 };

/**
 * The account stores over a fresh table of DynamoDB Local, each built from its adapter as a function's entry
 * would: users, workspaces, API tokens, settings, notifications, revoked tokens, WebSocket connections, quota
 * counts, the failed-login guard; a JWT service and a password hasher; a clock the test moves. Every workspace
 * is on `plan` of `plans` (default: no limits).
 */
export async function accountStores(options: { plans?: PlanCatalog } = {}) {
  const { db, tableName } = await freshTable();
  const clock = new ManualClock(new Date());
  const plans = options.plans ?? UNLIMITED_CATALOG;
  const users = new DynamoUserRepository(db, tableName);
  const workspaces = new DynamoWorkspaceRepository(db, tableName, plans.defaultPlan, () => clock.now());
  const limiter = new RequestLimiter(new DynamoRateLimitStore(db, tableName), clock);
  const tokens = new JoseTokenService({ key: async () => TEST_JWT_KEY, issuer: 'docservice', audience: 'docservice-api', ttlSeconds: TTL_SECONDS, clock });
  const revokedTokens = new DynamoRevokedTokenStore(db, tableName);
  return {
    db,
    tableName,
    clock,
    users,
    workspaces,
    passwords: new Argon2idPasswordHasher(TEST_ARGON2ID),
    tokens,
    revokedTokens,
    connections: new DynamoConnectionRepository(db, tableName, clock),
    loginAttempts: { check: (username: string) => checkLoginAllowed(limiter, username), failed: (username: string) => recordLoginFailure(limiter, username) },
    apiTokens: new DynamoApiTokenRepository(db, tableName),
    apiTokenMaxDays: 365,
    settings: new DynamoSettingsRepository(db, tableName),
    notifications: new DynamoNotificationRepository(db, tableName),
    quotaCounts: new DynamoQuotaCounts(db, tableName),
    plans,
    workspaceStatus: { plan: async (workspaceId: string) => (await workspaces.findById(workspaceId))?.plan ?? null },
    legacyData: [new DynamoLegacyItemAdopter(db, tableName)],
    registrationMode: 'workspace' as const,
    refreshGraceSeconds: GRACE_SECONDS,
    /** The caller a bearer token stands for, as every request authenticates it. */
    authenticate: (token: string) => authenticate({ tokens, users, revokedTokens }, token),
  };
}

export type AccountStores = Awaited<ReturnType<typeof accountStores>>;

/** A principal of `workspaceId` as the authentication of a session would give it (no stored user behind it). */
export const aPrincipal = (role: Role, workspaceId: string = crypto.randomUUID(), overrides: Partial<Principal> = {}): Principal => {
  const userId = crypto.randomUUID();
  return {
    userId,
    username: `user_${userId.slice(0, 8)}`,
    email: `${userId.slice(0, 8)}@example.com`,
    role,
    workspaceId,
    jti: crypto.randomUUID(),
    tokenExpiresAt: new Date(Date.now() + 3_600_000),
    ...overrides,
  };
};

/** The password every member these tests make signs in with. */
export const PASSWORD = 'member-password';

/** A new member's account: username, email and the tests' password. */
export const account = (username: string) => ({ username, email: `${username}@example.com`, password: PASSWORD });

/** Signs a user in with a password and answers the caller their session's token stands for. */
export async function signIn(stores: AccountStores, username: string, password = PASSWORD): Promise<Principal> {
  return stores.authenticate((await login(stores, { username, password })).token);
}

/** A new workspace with one member of `role` (admin by default), signed in. */
export async function workspaceMember(stores: AccountStores, username: string, role: Role = 'admin', workspaceId: string = crypto.randomUUID()): Promise<Principal> {
  await stores.workspaces.create({ id: workspaceId, name: `${username}'s`, created_at: stores.clock.now().toISOString() });
  await createUser(stores, account(username), role, workspaceId);
  return signIn(stores, username);
}
