import { describe, expect, it } from 'vitest';
import { pageOf } from '../../../shared/domain/pagination';

describe('pageOf', () => {
  it('places a middle page among the whole, with a next and a previous page', () => {
    // Arrange
    const request = { page: 2, perPage: 10 };

    // Act
    const page = pageOf(['k', 'l'], request, 25);

    // Assert
    expect(page).toEqual({
      data: ['k', 'l'],
      pagination: { page: 2, per_page: 10, total: 25, total_pages: 3, has_next: true, has_prev: true },
    });
  });

  it('has no next page on the last page, even a full one', () => {
    // Arrange
    const request = { page: 3, perPage: 10 };

    // Act
    const { pagination } = pageOf([], request, 30);

    // Assert
    expect(pagination).toMatchObject({ total_pages: 3, has_next: false, has_prev: true });
  });

  it('has no previous page on the first page', () => {
    // Arrange
    const request = { page: 1, perPage: 20 };

    // Act
    const { pagination } = pageOf(['a'], request, 1);

    // Assert
    expect(pagination).toMatchObject({ total_pages: 1, has_next: false, has_prev: false });
  });

  it('answers zero pages, and neither neighbour, for an empty list', () => {
    // Arrange
    const request = { page: 1, perPage: 20 };

    // Act
    const page = pageOf([], request, 0);

    // Assert
    expect(page.pagination).toEqual({ page: 1, per_page: 20, total: 0, total_pages: 0, has_next: false, has_prev: false });
  });

  it('keeps a page asked beyond the last, empty and pointing back', () => {
    // Arrange
    const request = { page: 9, perPage: 10 };

    // Act
    const { data, pagination } = pageOf([], request, 15);

    // Assert
    expect(data).toEqual([]);
    expect(pagination).toMatchObject({ page: 9, total_pages: 2, has_next: false, has_prev: true });
  });
});
