import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../shared/domain/clock';

describe('systemClock', () => {
  it("tells the machine's time", () => {
    // Arrange
    const before = Date.now();

    // Act
    const now = systemClock.now().getTime();

    // Assert
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  it('answers a new Date each time, so that a caller changing one changes no other', () => {
    // Arrange
    const first = systemClock.now();

    // Act
    first.setFullYear(1999);

    // Assert
    expect(systemClock.now().getFullYear()).not.toBe(1999);
  });
});
