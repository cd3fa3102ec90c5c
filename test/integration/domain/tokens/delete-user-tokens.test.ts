import { describe, expect, it } from 'vitest';
import { UNLIMITED_PLAN } from '../../../../shared/domain/quotas/plans';
import { deleteUserApiTokens } from '../../../../shared/domain/tokens/delete-user-tokens';
import { listApiTokens } from '../../../../shared/domain/tokens/list-tokens';
import { tokenWorld } from './token-stores';

/** The tokens of a removed user, deleted over the real token and quota stores. */
describe('deleteUserApiTokens', () => {
  it("deletes every token of a removed user, and nobody else's", async () => {
    // Arrange
    const { stores, workspaceId, admin, alice, bob, make } = await tokenWorld();
    await make(alice, 'a1');
    await make(bob, 'b1');
    await make(alice, 'a2');

    // Act
    const deleted = await deleteUserApiTokens(stores, workspaceId, alice.userId);

    // Assert
    expect(deleted).toBe(2);
    expect((await listApiTokens(stores, admin, { all: true })).tokens.map((t) => t.name)).toEqual(['b1']);
  });

  it('answers 0 for a user without tokens left', async () => {
    // Arrange
    const { stores, workspaceId, alice, make } = await tokenWorld();
    await make(alice, 'a1');
    await deleteUserApiTokens(stores, workspaceId, alice.userId);

    // Act
    const again = await deleteUserApiTokens(stores, workspaceId, alice.userId);

    // Assert
    expect(again).toBe(0);
  });

  it("leaves the tokens of the same user id in another workspace", async () => {
    // Arrange
    const { stores, alice, make } = await tokenWorld();
    await make(alice, 'a1');

    // Act
    const deleted = await deleteUserApiTokens(stores, crypto.randomUUID(), alice.userId);

    // Assert
    expect(deleted).toBe(0);
    expect((await listApiTokens(stores, alice, { all: false })).tokens).toHaveLength(1);
  });

  it("gives the tokens' places back to the workspace's api_tokens count", async () => {
    // Arrange
    const { stores, workspaceId, alice, bob, make } = await tokenWorld({ plans: { plans: { two: { ...UNLIMITED_PLAN, api_tokens: 2 } }, defaultPlan: 'two' } });
    await make(alice, 'a1');
    await make(alice, 'a2');

    // Act
    await deleteUserApiTokens(stores, workspaceId, alice.userId);

    // Assert
    await expect(Promise.all([make(bob, 'b1'), make(bob, 'b2')])).resolves.toHaveLength(2);
  });
});
