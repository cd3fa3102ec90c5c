import { describe, expect, it } from 'vitest';
import { MAX_REACHABLE_RESULTS, type SearchResults } from '../../../../shared/domain/search/ports';
import { assertReachable, withinReach } from '../../../../shared/domain/search/reachable-results';

const results = (count: number): SearchResults => ({
  results: Array.from({ length: count }, (_, i) => ({ document_id: `d${i}`, title: `t${i}`, score: 1, highlights: [] })),
  total: 5000,
  facets: { mime_types: { 'application/pdf': 5000 }, labels: {} },
});

describe('assertReachable', () => {
  it('lets through the last page that starts within the limit', () => {
    // Act
    const outcome = () => assertReachable(MAX_REACHABLE_RESULTS / 20, 20);

    // Assert
    expect(outcome).not.toThrow();
  });

  it('refuses a page that starts beyond the limit with 400 on page, naming the limit', () => {
    // Act
    const error = (() => {
      try {
        assertReachable(MAX_REACHABLE_RESULTS / 20 + 1, 20);
        return null;
      } catch (caught) {
        return caught as { code: string; message: string; details: Record<string, unknown> };
      }
    })();

    // Assert
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringContaining(String(MAX_REACHABLE_RESULTS)), details: { field: 'page' } });
  });
});

describe('withinReach', () => {
  it('cuts a page that straddles the limit at it, keeping total and facets', () => {
    // Arrange
    const page = results(30);

    // Act
    const cut = withinReach(page, 34, 30);

    // Assert
    expect(cut.results).toHaveLength(MAX_REACHABLE_RESULTS - 33 * 30);
    expect({ total: cut.total, facets: cut.facets }).toEqual({ total: page.total, facets: page.facets });
  });

  it('leaves a page within the limit as it is', () => {
    // Arrange
    const page = results(20);

    // Act
    const kept = withinReach(page, 1, 20);

    // Assert
    expect(kept).toBe(page);
  });
});
