/**
 * The reference's cursor pagination (plane/utils/paginator.py, OffsetPaginator): `per_page`
 * (default and at most 1000) and `cursor` = "per_page:page:is_prev"; the answer carries
 * next_cursor, prev_cursor, next_page_results, prev_page_results, count, total_pages,
 * total_results, extra_stats and results (plus grouped_by, sub_grouped_by, total_count).
 */
import { ApiError } from "../http/errors.ts";

export const MAX_PER_PAGE = 1000;

export type PageRequest = { perPage: number; page: number; offset: number };

const parseError = (detail: string) => new ApiError(400, detail, { code: "INVALID_PAGINATION" });

/** `per_page` and `cursor` of a query, or a 400 as the reference answers. */
export function readPage(query: Record<string, unknown> | undefined): PageRequest {
  const rawPerPage = query?.per_page;
  let perPage = MAX_PER_PAGE;
  if (rawPerPage !== undefined && rawPerPage !== "") {
    if (!/^\d{1,9}$/.test(String(rawPerPage))) throw parseError("Invalid per_page parameter.");
    perPage = Number(rawPerPage);
    if (perPage > MAX_PER_PAGE) throw parseError(`Invalid per_page value. Cannot exceed ${MAX_PER_PAGE}.`);
    if (perPage < 1) throw parseError("Invalid per_page parameter.");
  }
  const rawCursor = query?.cursor;
  let page = 0;
  if (rawCursor !== undefined && rawCursor !== "") {
    const m = /^(\d{1,9}(?:\.\d+)?):(-?\d{1,9}):([01])$/.exec(String(rawCursor));
    if (!m) throw parseError("Invalid cursor parameter.");
    page = Number(m[2]);
    if (page < 0) throw parseError("Error in parsing");
  }
  return { perPage, page, offset: page * perPage };
}

/** The paginated answer for one page: `rows` holds at most perPage + 1 rows from the offset. */
export function pageAnswer<T>(req: PageRequest, rows: readonly T[], total: number) {
  const results = rows.slice(0, req.perPage);
  return {
    grouped_by: null,
    sub_grouped_by: null,
    total_count: total,
    next_cursor: `${req.perPage}:${req.page + 1}:0`,
    prev_cursor: `${req.perPage}:${req.page - 1}:1`,
    next_page_results: rows.length > req.perPage,
    prev_page_results: req.page > 0,
    count: results.length,
    total_pages: Math.ceil(total / req.perPage),
    total_results: total,
    extra_stats: null,
    results,
  };
}

/** Paginate a list already in memory (small lists: states, labels, links, comments). */
export function paginateList<T>(query: Record<string, unknown> | undefined, all: readonly T[]) {
  const req = readPage(query);
  return pageAnswer(req, all.slice(req.offset, req.offset + req.perPage + 1), all.length);
}
