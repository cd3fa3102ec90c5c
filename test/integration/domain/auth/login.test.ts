import { beforeEach, describe, expect, it } from 'vitest';
import { Argon2idPasswordHasher } from '../../../../shared/adapters/crypto/argon2id-password-hasher';
import { login } from '../../../../shared/domain/auth/login';
import { LOGIN_FAILURES } from '../../../../shared/domain/limits/login-failures';
import { registerUser } from '../../../../shared/domain/users/register';
import { FORMER_SCRYPT_COSTS, formerPasswordHash } from '../../../support/former-password-hash';
import { accountStores, TTL_SECONDS, type AccountStores } from '../users/account-stores';

const alice = { username: 'alice', email: 'alice@example.com', password: 'alice-password' };

/** Username and password for a session, over the real user store, hasher, token service and failed-login guard. */
describe('login', () => {
  let stores: AccountStores;

  beforeEach(async () => {
    stores = await accountStores();
    await registerUser(stores, alice);
  });

  it('answers a session whose token authenticates its user and expires after the token lifetime', async () => {
    // Act
    const session = await login(stores, alice);

    // Assert
    expect(session.user).toMatchObject({ username: 'alice', email: 'alice@example.com', role: 'admin' });
    expect(Object.keys(session.user).sort()).toEqual(['email', 'id', 'role', 'username']);
    expect(session.expires_at).toBe(new Date(Math.floor(stores.clock.now().getTime() / 1000) * 1000 + TTL_SECONDS * 1000).toISOString());
    expect((await stores.authenticate(session.token)).userId).toBe(session.user.id);
  });

  it('answers an unknown user and a wrong password with the same error', async () => {
    // Act
    const unknown = await login(stores, { username: 'mallory', password: 'x' }).catch((e: unknown) => e);
    const wrong = await login(stores, { username: 'alice', password: 'x' }).catch((e: unknown) => e);

    // Assert
    expect(unknown).toMatchObject({ code: 'UNAUTHORIZED', message: 'Invalid username or password' });
    expect(wrong).toEqual(unknown);
  });

  it('refuses a name whose failed logins are used up, even with the right password', async () => {
    // Arrange
    for (let i = 0; i < LOGIN_FAILURES.burst; i++) await login(stores, { username: 'alice', password: 'guess' }).catch(() => undefined);

    // Act
    const attempt = login(stores, alice);

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('lets the name in again once the failures have drained', async () => {
    // Arrange
    for (let i = 0; i < LOGIN_FAILURES.burst; i++) await login(stores, { username: 'alice', password: 'guess' }).catch(() => undefined);
    stores.clock.advanceSeconds(60 / LOGIN_FAILURES.perMinute);

    // Act
    const session = await login(stores, alice);

    // Assert
    expect(session.user.username).toBe('alice');
  });

  describe.each(FORMER_SCRYPT_COSTS)('with a former scrypt password hash (N = %i)', (N) => {
    let userId: string;

    beforeEach(async () => {
      // The hasher at its default parameters, the ones such hashes are replaced with.
      stores = { ...stores, passwords: new Argon2idPasswordHasher() };
      userId = (await stores.users.findByUsername(alice.username))!.id;
      // Stored as a password change would, before any session exists, so that no session depends on it.
      await stores.users.updatePassword(userId, formerPasswordHash(alice.password, N), stores.clock.now().toISOString());
    });

    it('stores an Argon2id hash of the default parameters at the next login', async () => {
      // Act
      await login(stores, alice);

      // Assert
      expect((await stores.users.findById(userId))!.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    });

    it('keeps the former hash when the password is wrong', async () => {
      // Arrange
      const former = (await stores.users.findById(userId))!.password_hash;

      // Act
      const attempt = await login(stores, { username: alice.username, password: 'not-alice-password' }).catch((e: unknown) => e);

      // Assert
      expect(attempt).toMatchObject({ code: 'UNAUTHORIZED', message: 'Invalid username or password' });
      expect((await stores.users.findById(userId))!.password_hash).toBe(former);
    });

    it("keeps the user's other sessions valid when it replaces the hash", async () => {
      // Arrange
      const user = (await stores.users.findById(userId))!;
      // A session from an earlier login on another device, made while the former hash was stored.
      const other = await stores.tokens.issue({ userId, role: user.role, tokenVersion: user.token_version });

      // Act
      await login(stores, alice);

      // Assert
      expect((await stores.authenticate(other.token)).userId).toBe(userId);
    });

    it('lets the same password in again against the Argon2id hash, and leaves that hash as it is', async () => {
      // Arrange
      await login(stores, alice);
      const replaced = (await stores.users.findById(userId))!.password_hash;

      // Act
      const again = await login(stores, alice);

      // Assert
      expect(again.user.username).toBe(alice.username);
      expect((await stores.users.findById(userId))!.password_hash).toBe(replaced);
    });
  });
});
