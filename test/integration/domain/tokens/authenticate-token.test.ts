import { beforeAll, describe, expect, it } from 'vitest';
import type { Principal, Role } from '../../../../shared/domain/principal';
import { apiTokenSessionId, authenticateApiToken } from '../../../../shared/domain/tokens/authenticate-token';
import { createApiToken } from '../../../../shared/domain/tokens/create-token';
import type { ApiTokenRepository, TokenScope } from '../../../../shared/domain/tokens/ports';
import { hashToken, newToken } from '../../../../shared/domain/tokens/token-format';
import type { User } from '../../../../shared/domain/users/user';
import { aUser } from '../../../support/builders';
import { accountStores, type AccountStores } from '../users/account-stores';

/** A personal API token turned into its caller, over the real token and user stores. */
describe('authenticateApiToken', () => {
  let stores: AccountStores;

  beforeAll(async () => {
    stores = await accountStores();
  });

  /** A stored user of a workspace of their own (an admin stays beside them, so that any role change is allowed). */
  const storedUser = async (overrides: Partial<User> = {}): Promise<User> => {
    const workspaceId = crypto.randomUUID();
    await stores.users.create(aUser({ workspace_id: workspaceId, role: 'admin' }));
    const user = aUser({ workspace_id: workspaceId, ...overrides });
    await stores.users.create(user);
    return user;
  };

  /** A token the user made with these scopes, expiring at `expiresAt` (else as far away as allowed). */
  const mint = async (user: User, scopes: TokenScope[], expiresAt?: string) => {
    const caller = { userId: user.id, workspaceId: user.workspace_id } as Principal;
    return (await createApiToken(stores, caller, { name: 't', scopes, expires_at: expiresAt })).token;
  };

  const matrix: [Role, TokenScope[], Role][] = [
    ['admin', ['read'], 'viewer'],
    ['admin', ['write'], 'editor'],
    ['admin', ['admin'], 'admin'],
    ['admin', ['read', 'admin'], 'admin'],
    ['editor', ['admin'], 'editor'],
    ['viewer', ['write'], 'viewer'],
    ['editor', ['read'], 'viewer'],
  ];
  it.each(matrix)('lets a %s user with a %j token act as %s', async (userRole, scopes, acting) => {
    // Arrange
    const user = await storedUser({ role: userRole });
    const token = await mint(user, scopes);

    // Act
    const principal = await authenticateApiToken(stores, token);

    // Assert
    expect(principal).toMatchObject({ userId: user.id, workspaceId: user.workspace_id, role: acting, apiToken: { scopes } });
  });

  it("follows the user's role at each request: a demotion holds at once", async () => {
    // Arrange
    const user = await storedUser({ role: 'editor' });
    const token = await mint(user, ['write']);
    await stores.users.updateMember(user.workspace_id, user.id, { role: 'viewer' }, stores.clock.now().toISOString());

    // Act
    const principal = await authenticateApiToken(stores, token);

    // Assert
    expect(principal.role).toBe('viewer');
  });

  it('refuses the token of a user who was deleted', async () => {
    // Arrange
    const user = await storedUser({ role: 'editor' });
    const token = await mint(user, ['write']);
    await stores.users.delete(user.workspace_id, user.id);

    // Act
    const attempt = authenticateApiToken(stores, token);

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'UNAUTHORIZED', message: 'The token is no longer valid' });
  });

  it("gives the operator's powers only with the admin scope", async () => {
    // Arrange
    const user = await storedUser({ role: 'admin', operator: true });
    const [admin, write] = [await mint(user, ['admin']), await mint(user, ['write'])];

    // Act
    const principals = [await authenticateApiToken(stores, admin), await authenticateApiToken(stores, write)];

    // Assert
    expect(principals.map((p) => p.operator)).toEqual([true, false]);
  });

  it('refuses a malformed token before any read', async () => {
    // Arrange: the token store, counting its reads.
    let reads = 0;
    const apiTokens: ApiTokenRepository = Object.create(stores.apiTokens, {
      findByHash: { value: (hash: string) => ((reads += 1), stores.apiTokens.findByHash(hash)) },
    });

    // Act
    const attempt = authenticateApiToken({ ...stores, apiTokens }, 'dst_nonsense');

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'UNAUTHORIZED', message: 'The token is not valid' });
    expect(reads).toBe(0);
  });

  it('refuses a well-formed token nobody made, and one that was deleted', async () => {
    // Arrange
    const user = await storedUser();
    const deleted = await mint(user, ['read']);
    await stores.apiTokens.delete((await stores.apiTokens.findByHash(hashToken(deleted)))!);

    // Act
    const [unknown, gone] = await Promise.allSettled([authenticateApiToken(stores, newToken()), authenticateApiToken(stores, deleted)]);

    // Assert
    expect(unknown).toMatchObject({ status: 'rejected', reason: { code: 'UNAUTHORIZED', message: 'The token is no longer valid' } });
    expect(gone).toMatchObject({ status: 'rejected', reason: { code: 'UNAUTHORIZED', message: 'The token is no longer valid' } });
  });

  it('refuses a token once it has expired', async () => {
    // Arrange
    const user = await storedUser();
    const token = await mint(user, ['read'], new Date(stores.clock.now().getTime() + 86_400_000).toISOString());
    await authenticateApiToken(stores, token);
    stores.clock.advanceSeconds(86_400);

    // Act
    const attempt = authenticateApiToken(stores, token);

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'UNAUTHORIZED', message: 'The token has expired' });
  });

  it("refuses a token stored for another workspace than its user's", async () => {
    // Arrange
    const user = await storedUser();
    const token = newToken();
    const now = stores.clock.now();
    await stores.apiTokens.create(
      {
        id: crypto.randomUUID(),
        hash: hashToken(token),
        user_id: user.id,
        workspace_id: crypto.randomUUID(),
        name: 'moved',
        prefix: token.slice(0, 8),
        scopes: ['read'],
        created_at: now.toISOString(),
        last_used_at: null,
        expires_at: new Date(now.getTime() + 86_400_000).toISOString(),
      },
      50,
    );

    // Act
    const attempt = authenticateApiToken(stores, token);

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('writes last_used_at at most once a minute', async () => {
    // Arrange
    const user = await storedUser();
    const token = await mint(user, ['read']);
    const first = stores.clock.now().toISOString();
    await authenticateApiToken(stores, token);
    stores.clock.advanceSeconds(30);
    await authenticateApiToken(stores, token);
    const lastUsed = async () => (await stores.apiTokens.findByHash(hashToken(token)))?.last_used_at;
    const afterHalfAMinute = await lastUsed();
    stores.clock.advanceSeconds(31);

    // Act
    await authenticateApiToken(stores, token);

    // Assert
    expect(afterHalfAMinute).toBe(first);
    expect(await lastUsed()).toBe(stores.clock.now().toISOString());
  });

  it('lets the request through when writing last_used_at fails', async () => {
    // Arrange: the token store, failing its writes of last_used_at.
    const user = await storedUser();
    const token = await mint(user, ['read']);
    const apiTokens: ApiTokenRepository = Object.create(stores.apiTokens, { touch: { value: () => Promise.reject(new Error('table down')) } });

    // Act
    const principal = authenticateApiToken({ ...stores, apiTokens }, token);

    // Assert
    await expect(principal).resolves.toMatchObject({ userId: user.id });
  });

  it('names the token as the session its WebSocket connections live by', async () => {
    // Arrange
    const user = await storedUser();
    const expiresAt = new Date(stores.clock.now().getTime() + 30 * 86_400_000);
    const token = await mint(user, ['read'], expiresAt.toISOString());
    const { id } = (await stores.apiTokens.findByHash(hashToken(token)))!;

    // Act
    const principal = await authenticateApiToken(stores, token);

    // Assert
    expect(principal.jti).toBe(apiTokenSessionId(id));
    expect(principal.tokenExpiresAt.toISOString()).toBe(expiresAt.toISOString());
    expect(principal.tokenVersion).toBe(user.token_version);
  });
});
