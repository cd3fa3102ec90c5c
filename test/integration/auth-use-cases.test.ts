import { beforeEach, describe, expect, it } from 'vitest';
import { commonEnvSchema, parseEnv } from '../../shared/container/config';
import { requestServing } from '../../shared/container/request-serving';
import { dynamoLegacyItems } from '../../shared/container/legacy-data';
import type { AppContainer } from '../../shared/container/app-container';
import { buildAppContainer } from '../../shared/container/build-app-container';
import { login } from '../../shared/domain/auth/login';
import { logout } from '../../shared/domain/auth/logout';
import { refreshSession } from '../../shared/domain/auth/refresh';
import { changePassword } from '../../shared/domain/auth/change-password';
import { resetPassword } from '../../shared/domain/auth/reset-password';
import { ensureAdmin } from '../../shared/domain/users/ensure-admin';
import { registerUser } from '../../shared/domain/users/register';
import { freshTable } from '../support/aws-resources';
import { ManualClock } from '../support/builders';
import { joseTokens } from '../../shared/adapters/jwt/jose-token-service';
import { dynamoConnections } from '../../shared/container/connection-store';
import { formerPasswordHash } from '../support/former-password-hash';

const TTL = 3600;
const GRACE = 86_400;

/** The auth use cases over the real repositories, token service and hasher, with a clock the test moves. */
describe('authentication use cases', () => {
  let c: AppContainer;
  let clock: ManualClock;
  const alice = { username: 'alice', email: 'alice@example.com', password: 'alice-password' };

  beforeEach(async () => {
    const { db, tableName } = await freshTable();
    clock = new ManualClock(new Date());
    c = buildAppContainer({
      db,
      tableName,
      tokens: joseTokens(async () => new TextEncoder().encode('k'.repeat(64))),
      env: parseEnv(commonEnvSchema, { JWT_TTL_SECONDS: String(TTL), JWT_REFRESH_GRACE_SECONDS: String(GRACE) }),
      healthProbes: [],
      clock,
      connectionStore: dynamoConnections,
      serving: requestServing,
      legacyData: dynamoLegacyItems,
    });
    await registerUser(c, alice);
  });

  it('refuses registration while it is closed', async () => {
    const closed = { ...c, registrationMode: 'closed' as const };

    await expect(registerUser(closed, { ...alice, username: 'bob', email: 'bob@example.com' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
  });

  it('issues a token that authenticates its user until it expires', async () => {
    const session = await login(c, alice);

    expect((await c.authenticate(session.token)).username).toBe('alice');
    clock.advanceSeconds(TTL + 1);
    await expect(c.authenticate(session.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('refreshes a token that expired within the grace window', async () => {
    const session = await login(c, alice);
    clock.advanceSeconds(TTL + GRACE - 60);

    const fresh = await refreshSession(c, session.token);

    expect((await c.authenticate(fresh.token)).username).toBe('alice');
  });

  it('refuses to refresh a token that expired beyond the grace window', async () => {
    const session = await login(c, alice);
    clock.advanceSeconds(TTL + GRACE + 60);

    await expect(refreshSession(c, session.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('lets only one of two concurrent refreshes of a token succeed', async () => {
    const session = await login(c, alice);

    const outcomes = await Promise.allSettled([refreshSession(c, session.token), refreshSession(c, session.token)]);

    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
  });

  it('refuses to refresh a logged-out token even after it expired', async () => {
    const session = await login(c, alice);
    await logout(c, await c.authenticate(session.token));
    clock.advanceSeconds(TTL + 10);

    await expect(refreshSession(c, session.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('ends every older token of the user on a password change', async () => {
    const first = await login(c, alice);
    const second = await login(c, alice);
    const caller = await c.authenticate(first.token);

    const fresh = await changePassword(c, caller.userId, { current_password: alice.password, new_password: 'new-password' });

    await expect(c.authenticate(first.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(c.authenticate(second.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await c.authenticate(fresh.token)).userId).toBe(caller.userId);
  });

  it("lets a user in with the password an operator reset and ends the user's older tokens", async () => {
    const before = await login(c, alice);

    await resetPassword(c, 'alice', 'a-new-password');

    await expect(c.authenticate(before.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(login(c, alice)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await login(c, { username: 'alice', password: 'a-new-password' })).token).toEqual(expect.any(String));
  });

  it('answers a reset for an unknown username NOT_FOUND', async () => {
    await expect(resetPassword(c, 'nobody', 'a-new-password')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  describe('with a password hash of the former cost (N = 2^14)', () => {
    let userId: string;

    beforeEach(async () => {
      userId = (await c.users.findByUsername(alice.username))!.id;
      // Stored as a password change would, before any session exists, so that no session depends on it.
      await c.users.updatePassword(userId, formerPasswordHash(alice.password), clock.now().toISOString());
    });

    it('stores a hash of the current cost (N = 2^17) at the next login', async () => {
      await login(c, alice);

      expect((await c.users.findById(userId))!.password_hash).toMatch(/^scrypt\$131072\$8\$1\$/);
    });

    it('keeps the user\'s other sessions valid when it replaces the hash', async () => {
      const user = (await c.users.findById(userId))!;
      // A session from an earlier login on another device, made while the former hash was stored.
      const other = await c.tokens.issue({ userId, role: user.role, tokenVersion: user.token_version });

      await login(c, alice);

      expect((await c.authenticate(other.token)).userId).toBe(userId);
    });

    it('lets the same password in again once the hash was replaced', async () => {
      await login(c, alice);

      await expect(login(c, alice)).resolves.toMatchObject({ user: { username: alice.username } });
    });
  });

  it('answers an unknown user and a wrong password with the same error', async () => {
    const unknown = await login(c, { username: 'mallory', password: 'x' }).catch((e: unknown) => e);
    const wrong = await login(c, { username: 'alice', password: 'x' }).catch((e: unknown) => e);

    expect(unknown).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(wrong).toEqual(unknown);
  });

  it('creates the configured admin once and never resets its password', async () => {
    const admin = { username: 'root', email: 'root@example.com', password: 'first-admin-password' };

    const created = await ensureAdmin(c, admin);
    const again = await ensureAdmin(c, { ...admin, password: 'other-password' });

    expect([created, again]).toEqual([true, false]);
    expect((await login(c, admin)).user.role).toBe('admin');
  });
});
