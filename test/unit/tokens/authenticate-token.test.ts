import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/domain/errors';
import type { Role } from '../../../shared/domain/principal';
import { apiTokenSessionId, authenticateApiToken } from '../../../shared/domain/tokens/authenticate-token';
import { createApiToken } from '../../../shared/domain/tokens/create-token';
import type { TokenScope } from '../../../shared/domain/tokens/ports';
import { hashToken, newToken } from '../../../shared/domain/tokens/token-format';
import type { UserRepository } from '../../../shared/domain/users/ports';
import type { User } from '../../../shared/domain/users/user';
import { aUser, ManualClock } from '../../support/builders';
import { quotaDeps } from '../../support/memory-quota-counts';
import { MemoryApiTokens } from './fake-api-tokens';

const setup = (user: User) => {
  const apiTokens = new MemoryApiTokens();
  const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
  const stored = new Map([[user.id, user]]);
  const users = { findById: async (id: string) => stored.get(id) ?? null } as unknown as UserRepository;
  const mint = async (scopes: TokenScope[], expiresAt?: string) =>
    (await createApiToken({ apiTokens, clock, apiTokenMaxDays: 365, ...quotaDeps() }, { userId: user.id, workspaceId: user.workspace_id } as never, { name: 't', scopes, expires_at: expiresAt }))
      .token;
  return { apiTokens, clock, stored, mint, deps: { apiTokens, users, clock } };
};

const unauthorizedBy = async (promise: Promise<unknown>): Promise<string> => {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe('UNAUTHORIZED');
  return (error as AppError).message;
};

describe('authenticateApiToken', () => {
  const matrix: [Role, TokenScope[], Role][] = [
    ['admin', ['read'], 'viewer'],
    ['admin', ['write'], 'editor'],
    ['admin', ['admin'], 'admin'],
    ['admin', ['read', 'admin'], 'admin'],
    ['editor', ['admin'], 'editor'],
    ['viewer', ['write'], 'viewer'],
    ['editor', ['read'], 'viewer'],
  ];
  it.each(matrix)('a %s user with a %j token acts as %s', async (userRole, scopes, acting) => {
    const user = aUser({ role: userRole });
    const { deps, mint } = setup(user);
    const principal = await authenticateApiToken(deps, await mint(scopes));
    expect(principal).toMatchObject({ userId: user.id, workspaceId: user.workspace_id, role: acting, apiToken: { scopes } });
  });

  it("follows the user's role at each request: a demotion holds at once, a deletion ends the token", async () => {
    const user = aUser({ role: 'editor' });
    const { deps, mint, stored } = setup(user);
    const token = await mint(['write']);
    expect((await authenticateApiToken(deps, token)).role).toBe('editor');
    stored.set(user.id, { ...user, role: 'viewer' });
    expect((await authenticateApiToken(deps, token)).role).toBe('viewer');
    stored.delete(user.id);
    await unauthorizedBy(authenticateApiToken(deps, token));
  });

  it('gives the operator powers only with the admin scope', async () => {
    const user = aUser({ role: 'admin', operator: true });
    const { deps, mint } = setup(user);
    expect((await authenticateApiToken(deps, await mint(['admin']))).operator).toBe(true);
    expect((await authenticateApiToken(deps, await mint(['write']))).operator).toBe(false);
  });

  it('refuses a malformed token before any read, an unknown one, a deleted one and an expired one', async () => {
    const user = aUser();
    const { deps, mint, apiTokens, clock } = setup(user);
    const read = apiTokens.findByHash.bind(apiTokens);
    let reads = 0;
    apiTokens.findByHash = (hash) => ((reads += 1), read(hash));
    expect(await unauthorizedBy(authenticateApiToken(deps, 'dst_nonsense'))).toBe('The token is not valid');
    expect(reads).toBe(0);
    await unauthorizedBy(authenticateApiToken(deps, newToken()));
    const token = await mint(['read'], '2026-01-02T00:00:00Z');
    await authenticateApiToken(deps, token);
    clock.advanceSeconds(86_400);
    expect(await unauthorizedBy(authenticateApiToken(deps, token))).toBe('The token has expired');
    const other = await mint(['read']);
    await apiTokens.delete((await apiTokens.findByHash(hashToken(other)))!);
    await unauthorizedBy(authenticateApiToken(deps, other));
  });

  it('refuses a token whose user is now in another workspace', async () => {
    const user = aUser();
    const { deps, mint, stored } = setup(user);
    const token = await mint(['read']);
    stored.set(user.id, { ...user, workspace_id: 'elsewhere' });
    await unauthorizedBy(authenticateApiToken(deps, token));
  });

  it('writes last_used_at at most once a minute, and a failed write fails nothing', async () => {
    const user = aUser();
    const { deps, mint, apiTokens, clock } = setup(user);
    const token = await mint(['read']);
    await authenticateApiToken(deps, token);
    clock.advanceSeconds(30);
    await authenticateApiToken(deps, token);
    expect(apiTokens.touches).toBe(1);
    expect((await apiTokens.findByHash(hashToken(token)))?.last_used_at).toBe('2026-01-01T00:00:00.000Z');
    clock.advanceSeconds(31);
    await authenticateApiToken(deps, token);
    expect(apiTokens.touches).toBe(2);
    apiTokens.touch = () => Promise.reject(new Error('table down'));
    clock.advanceSeconds(61);
    await expect(authenticateApiToken(deps, token)).resolves.toMatchObject({ userId: user.id });
  });

  it('names the token as the session WebSocket connections live by', async () => {
    const user = aUser();
    const { deps, mint, apiTokens } = setup(user);
    const token = await mint(['read'], '2026-03-01T00:00:00Z');
    const principal = await authenticateApiToken(deps, token);
    const { id } = (await apiTokens.findByHash(hashToken(token)))!;
    expect(principal.jti).toBe(apiTokenSessionId(id));
    expect(principal.tokenExpiresAt.toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(principal.tokenVersion).toBe(user.token_version);
  });
});
