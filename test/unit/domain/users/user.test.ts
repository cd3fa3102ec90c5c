import { describe, expect, it } from 'vitest';
import { toPublicUser, type User } from '../../../../shared/domain/users/user';

const stored: User = {
  id: 'u-1',
  workspace_id: 'w-1',
  username: 'alice',
  email: 'alice@example.com',
  role: 'editor',
  display_name: 'Alice',
  password_hash: 'scrypt$1024$8$1$salt$key',
  token_version: 3,
  operator: true,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-02T00:00:00.000Z',
};

describe('toPublicUser', () => {
  it('leaves out the password hash, the token version and the operator mark', () => {
    // Act
    const shown = toPublicUser(stored);

    // Assert
    expect(shown).not.toHaveProperty('password_hash');
    expect(shown).not.toHaveProperty('token_version');
    expect(shown).not.toHaveProperty('operator');
  });

  it('keeps every other field as stored', () => {
    // Act
    const shown = toPublicUser(stored);

    // Assert
    expect(shown).toEqual({
      id: 'u-1',
      workspace_id: 'w-1',
      username: 'alice',
      email: 'alice@example.com',
      role: 'editor',
      display_name: 'Alice',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-02T00:00:00.000Z',
    });
  });
});
