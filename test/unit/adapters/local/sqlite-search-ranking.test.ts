import { describe, expect, it } from 'vitest';
import { best } from '../../../../shared/adapters/local/sqlite-search-ranking';

/** Rows of (row id, score) with many equal scores, as BM25 gives documents of one length and one count. */
const rows = (count: number, distinctScores: number): [number, number][] =>
  Array.from({ length: count }, (_, i) => [i + 1, ((i * 7919) % distinctScores) / 3]);

describe('best: the highest-scoring rows of a ranking', () => {
  it('keeps the same scores, best first, as sorting every row would', () => {
    // Arrange
    const many = rows(20_000, 977);

    // Act
    const kept = best([...many], 70);

    // Assert
    const sorted = [...many].sort((a, b) => b[1] - a[1]).slice(0, 70);
    expect(kept.map(([, score]) => score)).toEqual(sorted.map(([, score]) => score));
  });

  it('keeps only rows whose score is at least that of any row left out', () => {
    // Arrange
    const many = rows(5_000, 40);

    // Act
    const kept = best([...many], 51);

    // Assert
    const lowest = Math.min(...kept.map(([, score]) => score));
    const keptIds = new Set(kept.map(([rid]) => rid));
    expect(many.filter(([rid]) => !keptIds.has(rid)).every(([, score]) => score <= lowest)).toBe(true);
    expect(kept).toHaveLength(51);
  });

  it('sorts every row when there are no more than asked for', () => {
    // Arrange
    const few: [number, number][] = [[1, 0.5], [2, 2], [3, 1]];

    // Act
    const kept = best(few, 51);

    // Assert
    expect(kept).toEqual([[2, 2], [3, 1], [1, 0.5]]);
  });
});
