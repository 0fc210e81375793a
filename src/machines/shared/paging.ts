import type { Paginator } from '../../../contracts/index.ts';

/** A list screen's place in the server's pages (Browse Offers, Recent Trades). */
export type Paged = { page: number; paginator: Paginator | null };

/** Previous/Next follow the paginator the server sent (spec section 3), never a count of our own. */
export const hasNextPage = ({ paginator }: Paged) => Boolean(paginator?.next);
export const hasPreviousPage = ({ paginator }: Paged) => Boolean(paginator?.prev);
export const nextPageOf = ({ page, paginator }: Paged) => paginator?.next_page ?? page + 1;
export const previousPageOf = ({ page, paginator }: Paged) => paginator?.previous_page ?? Math.max(1, page - 1);
