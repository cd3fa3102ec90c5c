import { describe, expect, it } from 'vitest';
import { listApiTokens } from '../../../../shared/domain/tokens/list-tokens';
import { tokenWorld } from './token-stores';

/** Listing API tokens, over the real token store. */
describe('listApiTokens', () => {
  it("lists the caller's own, oldest first, without secret or hash", async () => {
    // Arrange
    const { stores, alice, bob, make } = await tokenWorld();
    await make(alice, 'a1');
    await make(bob, 'b1');
    await make(alice, 'a2');

    // Act
    const { tokens } = await listApiTokens(stores, alice, { all: false });

    // Assert
    expect(tokens.map((t) => t.name)).toEqual(['a1', 'a2']);
    for (const token of tokens) {
      expect(Object.keys(token).sort()).toEqual(['created_at', 'expires_at', 'id', 'last_used_at', 'name', 'prefix', 'scopes', 'user_id']);
    }
  });

  it("lists the whole workspace's for an admin with all, never another workspace's", async () => {
    // Arrange
    const { stores, admin, alice, bob, stranger, make } = await tokenWorld();
    await make(alice, 'a1');
    await make(bob, 'b1');
    await make(stranger, 's1');

    // Act
    const { tokens } = await listApiTokens(stores, admin, { all: true });

    // Assert
    expect(tokens.map((t) => t.name)).toEqual(['a1', 'b1']);
  });

  it("refuses all to a member who is not an admin, saying the role it takes", async () => {
    // Arrange
    const { stores, alice } = await tokenWorld();

    // Act
    const attempt = listApiTokens(stores, alice, { all: true });

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'FORBIDDEN', details: { required_role: 'admin', role: 'editor' } });
  });

  it('answers an empty list to a caller without tokens', async () => {
    // Arrange
    const { stores, bob } = await tokenWorld();

    // Act
    const listed = await listApiTokens(stores, bob, { all: false });

    // Assert
    expect(listed).toEqual({ tokens: [] });
  });
});
