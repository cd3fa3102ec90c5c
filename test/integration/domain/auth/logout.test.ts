import { beforeEach, describe, expect, it } from 'vitest';
import { login } from '../../../../shared/domain/auth/login';
import { logout } from '../../../../shared/domain/auth/logout';
import { refreshSession } from '../../../../shared/domain/auth/refresh';
import { sessionOf } from '../../../../shared/domain/connections/sessions';
import type { Principal } from '../../../../shared/domain/principal';
import { registerUser } from '../../../../shared/domain/users/register';
import { accountStores, TTL_SECONDS, type AccountStores } from '../users/account-stores';

const alice = { username: 'alice', email: 'alice@example.com', password: 'alice-password' };

/** The end of a session, over the real revoked-token and connection stores. */
describe('logout', () => {
  let stores: AccountStores;

  /** A connection of the caller, authenticated with the caller's token. */
  const connectionOf = async (caller: Principal) => {
    const id = crypto.randomUUID();
    await stores.connections.open(id, stores.clock.now());
    await stores.connections.authenticate(id, { userId: caller.userId, workspaceId: caller.workspaceId }, 5, sessionOf(caller));
    return id;
  };

  beforeEach(async () => {
    stores = await accountStores();
    await registerUser(stores, alice);
  });

  it('refuses the logged-out token from then on', async () => {
    // Arrange
    const { token } = await login(stores, alice);

    // Act
    await logout(stores, await stores.authenticate(token));

    // Assert
    await expect(stores.authenticate(token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('refuses to refresh a logged-out token even after it expired', async () => {
    // Arrange
    const { token } = await login(stores, alice);
    await logout(stores, await stores.authenticate(token));
    stores.clock.advanceSeconds(TTL_SECONDS + 10);

    // Act
    const attempt = refreshSession(stores, token);

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it("keeps the user's other sessions", async () => {
    // Arrange
    const ending = await login(stores, alice);
    const staying = await login(stores, alice);

    // Act
    await logout(stores, await stores.authenticate(ending.token));

    // Assert
    expect((await stores.authenticate(staying.token)).username).toBe('alice');
  });

  it("ends the WebSocket connections of the logged-out token only", async () => {
    // Arrange
    const ending = await stores.authenticate((await login(stores, alice)).token);
    const staying = await stores.authenticate((await login(stores, alice)).token);
    const [endingConnection, stayingConnection] = [await connectionOf(ending), await connectionOf(staying)];

    // Act
    await logout(stores, ending);

    // Assert
    expect(await stores.connections.get(endingConnection)).toMatchObject({ ended: 'logout' });
    expect(await stores.connections.get(stayingConnection)).not.toHaveProperty('ended');
  });
});
