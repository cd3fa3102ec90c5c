/** The P list body: one page of items and where it sits in the whole. */
export interface Page<T> {
  data: T[];
  pagination: {
    page: number;
    per_page: number;
    total: number;
    total_pages: number;
    has_next: boolean;
    has_prev: boolean;
  };
}

export interface PageRequest {
  page: number;
  perPage: number;
}

/** Builds the P list body for one page out of `total` items. */
export const pageOf = <T>(data: T[], request: PageRequest, total: number): Page<T> => {
  const totalPages = Math.ceil(total / request.perPage);
  return {
    data,
    pagination: {
      page: request.page,
      per_page: request.perPage,
      total,
      total_pages: totalPages,
      has_next: request.page < totalPages,
      has_prev: request.page > 1,
    },
  };
};
