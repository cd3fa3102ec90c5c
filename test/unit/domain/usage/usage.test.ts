import { describe, expect, it } from 'vitest';
import { MONTH_PATTERN, monthOf, noUsage } from '../../../../shared/domain/usage/usage';

describe('monthOf', () => {
  it('is the UTC calendar month of an instant, as YYYY-MM', () => {
    // Arrange
    const instant = new Date('2026-11-29T10:00:00Z');

    // Act
    const month = monthOf(instant);

    // Assert
    expect(month).toBe('2026-11');
  });

  it('counts an instant by UTC, not by its local offset', () => {
    // Arrange: the 1st of December 00:30 in UTC+1 is still November in UTC
    const instant = '2026-12-01T00:30:00+01:00';

    // Act
    const month = monthOf(instant);

    // Assert
    expect(month).toBe('2026-11');
  });
});

describe('MONTH_PATTERN', () => {
  it('takes YYYY-MM months and refuses anything else', () => {
    // Arrange
    const candidates = ['2026-01', '2026-12', '2026-00', '2026-13', '2026-1', '26-01', '2026-01-01'];

    // Act
    const taken = candidates.filter((month) => MONTH_PATTERN.test(month));

    // Assert
    expect(taken).toEqual(['2026-01', '2026-12']);
  });
});

describe('noUsage', () => {
  it('is every counter at zero, with no engine', () => {
    // Act
    const usage = noUsage();

    // Assert
    expect(Object.entries(usage).filter(([, value]) => value !== 0)).toEqual([['pages_ocred_by_engine', {}]]);
  });

  it('answers new counters each time, so that one filled in changes no other', () => {
    // Arrange
    const first = noUsage();

    // Act
    first.pages_ocred_by_engine['tesseract'] = 3;

    // Assert
    expect(noUsage().pages_ocred_by_engine).toEqual({});
  });
});
