import { describe, expect, it } from 'vitest';
import { isServing, WORKSPACE_STATUSES } from '../../../../shared/domain/workspaces/workspace';

describe('isServing', () => {
  it('serves an active workspace', () => {
    // Arrange
    const status = 'active' as const;

    // Act
    const serving = isServing(status);

    // Assert
    expect(serving).toBe(true);
  });

  it('serves no workspace that is suspended or being deleted', () => {
    // Arrange
    const others = WORKSPACE_STATUSES.filter((status) => status !== 'active');

    // Act
    const serving = others.map(isServing);

    // Assert
    expect(others).toEqual(['suspended', 'deleting']);
    expect(serving).toEqual([false, false]);
  });
});
