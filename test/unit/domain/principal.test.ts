import { describe, expect, it } from 'vitest';
import { hasRole, ROLES } from '../../../shared/domain/principal';

describe('hasRole', () => {
  it('lets each role do what it requires itself', () => {
    // Arrange
    const roles = ROLES;

    // Act
    const own = roles.map((role) => hasRole(role, role));

    // Assert
    expect(own).toEqual([true, true, true]);
  });

  it('lets an admin do what an editor or a viewer may', () => {
    // Arrange
    const actual = 'admin' as const;

    // Act
    const allowed = [hasRole(actual, 'editor'), hasRole(actual, 'viewer')];

    // Assert
    expect(allowed).toEqual([true, true]);
  });

  it('refuses a viewer what an editor or an admin may', () => {
    // Arrange
    const actual = 'viewer' as const;

    // Act
    const allowed = [hasRole(actual, 'editor'), hasRole(actual, 'admin')];

    // Assert
    expect(allowed).toEqual([false, false]);
  });

  it('refuses an editor what only an admin may', () => {
    // Arrange
    const actual = 'editor' as const;

    // Act
    const allowed = hasRole(actual, 'admin');

    // Assert
    expect(allowed).toBe(false);
  });
});
