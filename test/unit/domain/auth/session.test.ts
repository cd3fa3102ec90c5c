import { describe, expect, it } from 'vitest';
import type { IssuedToken } from '../../../../shared/domain/auth/ports';
import { revocationHorizon, toSession } from '../../../../shared/domain/auth/session';

const issued: IssuedToken = {
  token: 'header.payload.signature',
  claims: {
    userId: 'u-1',
    role: 'editor',
    tokenVersion: 2,
    jti: 'j-1',
    issuedAt: new Date('2026-01-01T00:00:00.000Z'),
    expiresAt: new Date('2026-01-01T01:00:00.000Z'),
  },
};

describe('toSession', () => {
  it('answers the token, its expiry and the user as login and refresh give them', () => {
    // Act
    const session = toSession(issued, { id: 'u-1', username: 'alice', email: 'alice@example.com', role: 'editor' });

    // Assert
    expect(session).toEqual({
      token: 'header.payload.signature',
      expires_at: '2026-01-01T01:00:00.000Z',
      user: { id: 'u-1', username: 'alice', email: 'alice@example.com', role: 'editor' },
    });
  });

  it('shows no more of the user than its id, names and role', () => {
    // Arrange
    const stored = { id: 'u-1', username: 'alice', email: 'alice@example.com', role: 'admin' as const, password_hash: 'secret', token_version: 2 };

    // Act
    const session = toSession(issued, stored);

    // Assert
    expect(Object.keys(session.user).sort()).toEqual(['email', 'id', 'role', 'username']);
  });
});

describe('revocationHorizon', () => {
  it('remembers a revocation as long as the token could still be refreshed', () => {
    // Act
    const horizon = revocationHorizon(new Date('2026-01-01T01:00:00.000Z'), 86_400);

    // Assert
    expect(horizon.toISOString()).toBe('2026-01-02T01:00:00.000Z');
  });
});
