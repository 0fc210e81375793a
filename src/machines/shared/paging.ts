import type { Paginator } from '../../../contracts/index.ts';

/** A list the server answers in pages: the page asked for and the paginator of the last answer. */
export type Paged = { page: number; paginator: Paginator | null };

/** Previous and Next follow the paginator the server sent, never a count of our own. */
export const paging = {
  hasNext: ({ paginator }: Paged) => Boolean(paginator?.next),
  hasPrevious: ({ paginator }: Paged) => Boolean(paginator?.prev),
  next: ({ page, paginator }: Paged) => paginator?.next_page ?? page + 1,
  previous: ({ page, paginator }: Paged) => paginator?.previous_page ?? Math.max(1, page - 1),
};
