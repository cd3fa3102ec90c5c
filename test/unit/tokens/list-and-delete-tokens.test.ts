import { describe, expect, it } from 'vitest';
import type { AppError } from '../../../shared/domain/errors';
import type { Principal } from '../../../shared/domain/principal';
import type { SessionEndReason, SessionSelector } from '../../../shared/domain/connections/ports';
import { apiTokenSessionId } from '../../../shared/domain/tokens/authenticate-token';
import { createApiToken } from '../../../shared/domain/tokens/create-token';
import { deleteApiToken } from '../../../shared/domain/tokens/delete-token';
import { deleteUserApiTokens } from '../../../shared/domain/tokens/delete-user-tokens';
import { listApiTokens } from '../../../shared/domain/tokens/list-tokens';
import { ManualClock } from '../../support/builders';
import { MemoryApiTokens } from './fake-api-tokens';
import { quotaDeps } from '../../support/memory-quota-counts';

const member = (userId: string, role: Principal['role'], workspaceId = 'w-1'): Principal => ({
  userId,
  username: userId,
  email: `${userId}@example.com`,
  role,
  workspaceId,
  jti: `j-${userId}`,
  tokenExpiresAt: new Date('2026-01-01T01:00:00Z'),
});

const admin = member('admin', 'admin');
const alice = member('alice', 'editor');
const bob = member('bob', 'viewer');
const stranger = member('stranger', 'admin', 'w-2');

const setup = async () => {
  const apiTokens = new MemoryApiTokens();
  const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
  const ended: [SessionSelector, SessionEndReason][] = [];
  const connections = {
    endSessions: async (selector: SessionSelector, reason: SessionEndReason) => (ended.push([selector, reason]), []),
    moveSessions: async () => [],
  };
  const quotas = quotaDeps();
  const make = async (caller: Principal, name: string) => {
    clock.advanceSeconds(1);
    return createApiToken({ apiTokens, clock, apiTokenMaxDays: 365, ...quotas }, caller, { name, scopes: ['read'] });
  };
  const tokens = { alice1: await make(alice, 'a1'), bob1: await make(bob, 'b1'), alice2: await make(alice, 'a2'), away: await make(stranger, 's1') };
  return { apiTokens, ended, tokens, deps: { apiTokens, connections, quotaCounts: quotas.quotaCounts } };
};

const codeOf = (promise: Promise<unknown>) => promise.then(() => null, (e: unknown) => (e as AppError).code);

describe('listApiTokens', () => {
  it("lists the caller's own, oldest first, without secret or hash", async () => {
    const { deps } = await setup();
    const { tokens } = await listApiTokens(deps, alice, { all: false });
    expect(tokens.map((t) => t.name)).toEqual(['a1', 'a2']);
    for (const token of tokens) {
      expect(Object.keys(token).sort()).toEqual(['created_at', 'expires_at', 'id', 'last_used_at', 'name', 'prefix', 'scopes', 'user_id']);
    }
  });

  it("lists the whole workspace's for an admin with all, never another workspace's; 403 for a member", async () => {
    const { deps } = await setup();
    expect((await listApiTokens(deps, admin, { all: true })).tokens.map((t) => t.name)).toEqual(['a1', 'b1', 'a2']);
    expect(await codeOf(listApiTokens(deps, alice, { all: true }))).toBe('FORBIDDEN');
  });
});

describe('deleteApiToken', () => {
  it('deletes the caller\'s own token and ends the WebSocket sessions it authenticated', async () => {
    const { deps, tokens, ended } = await setup();
    await deleteApiToken(deps, alice, tokens.alice1.id);
    expect((await listApiTokens(deps, alice, { all: false })).tokens.map((t) => t.name)).toEqual(['a2']);
    expect(ended).toEqual([[{ userId: 'alice', tokenId: apiTokenSessionId(tokens.alice1.id) }, 'logout']]);
    expect(await codeOf(deleteApiToken(deps, alice, tokens.alice1.id))).toBe('NOT_FOUND');
  });

  it("lets an admin delete a member's token; another member's or another workspace's is 404", async () => {
    const { deps, tokens } = await setup();
    expect(await codeOf(deleteApiToken(deps, bob, tokens.alice1.id))).toBe('NOT_FOUND');
    expect(await codeOf(deleteApiToken(deps, admin, tokens.away.id))).toBe('NOT_FOUND');
    await deleteApiToken(deps, admin, tokens.bob1.id);
    expect((await listApiTokens(deps, bob, { all: false })).tokens).toEqual([]);
  });
});

describe('deleteUserApiTokens', () => {
  it("deletes every token of a removed user, and nobody else's", async () => {
    const { deps } = await setup();
    expect(await deleteUserApiTokens(deps, 'w-1', 'alice')).toBe(2);
    expect((await listApiTokens(deps, admin, { all: true })).tokens.map((t) => t.name)).toEqual(['b1']);
    expect(await deleteUserApiTokens(deps, 'w-1', 'alice')).toBe(0);
  });
});
