import { describe, expect, it } from 'vitest';
import { apiTokenSessionId, authenticateApiToken } from '../../../../shared/domain/tokens/authenticate-token';
import { deleteApiToken } from '../../../../shared/domain/tokens/delete-token';
import { listApiTokens } from '../../../../shared/domain/tokens/list-tokens';
import { UNLIMITED_PLAN } from '../../../../shared/domain/quotas/plans';
import { tokenWorld } from './token-stores';

/** Revoking an API token, over the real token, connection and quota stores. */
describe('deleteApiToken', () => {
  it("deletes the caller's own token, after which it is not found", async () => {
    // Arrange
    const { stores, alice, make } = await tokenWorld();
    const [first] = [await make(alice, 'a1'), await make(alice, 'a2')];

    // Act
    await deleteApiToken(stores, alice, first.id);

    // Assert
    expect((await listApiTokens(stores, alice, { all: false })).tokens.map((t) => t.name)).toEqual(['a2']);
    await expect(deleteApiToken(stores, alice, first.id)).rejects.toMatchObject({ code: 'NOT_FOUND', details: { resource: 'API token', id: first.id } });
  });

  it('ends the WebSocket sessions the token authenticated', async () => {
    // Arrange
    const { stores, alice, make } = await tokenWorld();
    const token = await make(alice, 'a1');
    const connectionId = crypto.randomUUID();
    await stores.connections.open(connectionId, stores.clock.now());
    await stores.connections.authenticate(connectionId, { userId: alice.userId, workspaceId: alice.workspaceId }, 5, {
      tokenId: apiTokenSessionId(token.id),
      tokenVersion: 0,
      expiresAt: token.expires_at,
    });

    // Act
    await deleteApiToken(stores, alice, token.id);

    // Assert
    expect(await stores.connections.get(connectionId)).toMatchObject({ ended: 'logout' });
  });

  it("lets an admin delete a member's token", async () => {
    // Arrange
    const { stores, admin, bob, make } = await tokenWorld();
    const token = await make(bob, 'b1');

    // Act
    await deleteApiToken(stores, admin, token.id);

    // Assert
    expect((await listApiTokens(stores, bob, { all: false })).tokens).toEqual([]);
  });

  it("answers another member's token, or another workspace's, like an unknown id", async () => {
    // Arrange
    const { stores, admin, alice, bob, stranger, make } = await tokenWorld();
    const [alices, strangers] = [await make(alice, 'a1'), await make(stranger, 's1')];

    // Act
    const [byMember, byOtherAdmin] = await Promise.allSettled([deleteApiToken(stores, bob, alices.id), deleteApiToken(stores, admin, strangers.id)]);

    // Assert
    expect(byMember).toMatchObject({ status: 'rejected', reason: { code: 'NOT_FOUND' } });
    expect(byOtherAdmin).toMatchObject({ status: 'rejected', reason: { code: 'NOT_FOUND' } });
    expect((await listApiTokens(stores, stranger, { all: false })).tokens.map((t) => t.name)).toEqual(['s1']);
  });

  it("gives the token's place back to a workspace at its api_tokens limit", async () => {
    // Arrange
    const { stores, alice, make } = await tokenWorld({ plans: { plans: { two: { ...UNLIMITED_PLAN, api_tokens: 2 } }, defaultPlan: 'two' } });
    const [first] = [await make(alice, 'a1'), await make(alice, 'a2')];
    await expect(make(alice, 'a3')).rejects.toMatchObject({ details: { reason: 'quota_exceeded' } });

    // Act
    await deleteApiToken(stores, alice, first.id);

    // Assert
    await expect(make(alice, 'a3')).resolves.toMatchObject({ name: 'a3' });
  });

  it('makes the deleted token fail authentication from then on', async () => {
    // Arrange
    const { stores, alice, make } = await tokenWorld();
    const { token, id } = await make(alice, 'a1');

    // Act
    await deleteApiToken(stores, alice, id);

    // Assert
    await expect(authenticateApiToken(stores, token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
