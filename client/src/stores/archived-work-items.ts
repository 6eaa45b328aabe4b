/**
 * A project's archived work items (GET archived-issues/, paged and searchable on the server)
 * and restoring them. Restoring is optimistic: the row leaves the list at once and comes back
 * with a toast if the server refuses; the restored item joins the project's work-item cache.
 */
import { toast } from "sonner";
import { api } from "../lib/api";
import { mutationHeaders } from "../lib/client-mutations";
import { optimistic } from "../lib/optimistic";
import { defineStore } from "../lib/store";
import { upsertWorkItems, type WorkItem, workItems } from "./work-items";

const PAGE = 50;

export type ArchivedList = {
  status: "loading" | "ready" | "error";
  /** The search the list answers (the server matches names and numbers such as WEB-12). */
  search: string;
  items: WorkItem[];
  total: number;
  /** Cursor of the next page, or null on the last one. */
  next: string | null;
  loadingMore: boolean;
};

export const archivedWorkItems = defineStore(() => ({
  byProject: {} as Record<string, ArchivedList>,
}));

type Page = { results: WorkItem[]; total_count: number; next_cursor: string; next_page_results: boolean };

const base = (slug: string, projectId: string) => `/api/workspaces/${slug}/projects/${projectId}`;
/** The latest request per project: an older answer arriving late is dropped. */
const latest = new Map<string, number>();
let counter = 0;

/** Load the first page (for `search`), or the next page with `more`. */
export async function loadArchivedWorkItems(
  slug: string,
  projectId: string,
  options: { search?: string; more?: boolean } = {},
): Promise<void> {
  const current = archivedWorkItems.byProject[projectId];
  const search = options.more ? (current?.search ?? "") : (options.search ?? "").trim();
  if (options.more && (!current?.next || current.loadingMore)) return;
  const ticket = ++counter;
  latest.set(projectId, ticket);
  if (options.more && current) current.loadingMore = true;
  else
    archivedWorkItems.byProject[projectId] = {
      status: current && current.search === search ? current.status : "loading",
      search,
      items: current && current.search === search ? current.items : [],
      total: current && current.search === search ? current.total : 0,
      next: null,
      loadingMore: false,
    };
  const searchParams: Record<string, string> = {
    cursor: options.more && current?.next ? current.next : `${PAGE}:0:0`,
    order_by: "-updated_at",
  };
  if (search) searchParams.search = search;
  try {
    const page = await api.get(`${base(slug, projectId)}/archived-issues/`, { searchParams }).json<Page>();
    if (latest.get(projectId) !== ticket) return;
    const list = archivedWorkItems.byProject[projectId];
    if (!list) return;
    const items = options.more
      ? [...list.items, ...page.results.filter((i) => !list.items.some((x) => x.id === i.id))]
      : page.results;
    Object.assign(list, {
      status: "ready",
      items,
      total: page.total_count,
      next: page.next_page_results ? page.next_cursor : null,
      loadingMore: false,
    });
  } catch (error) {
    if (latest.get(projectId) !== ticket) return;
    const list = archivedWorkItems.byProject[projectId];
    if (list) {
      if (options.more) list.loadingMore = false;
      else list.status = "error";
    }
    throw error;
  }
}

/** Restore an archived item to the project's lists. */
export async function restoreArchivedWorkItem(slug: string, projectId: string, id: string): Promise<boolean> {
  const restored = await optimistic({
    apply: () => {
      const list = archivedWorkItems.byProject[projectId];
      if (!list) return () => undefined;
      const before = { items: list.items, total: list.total };
      list.items = list.items.filter((i) => i.id !== id);
      list.total = Math.max(0, list.total - (before.items.length - list.items.length));
      return () => {
        const now = archivedWorkItems.byProject[projectId];
        if (now) Object.assign(now, before);
      };
    },
    call: () =>
      api.delete(`${base(slug, projectId)}/issues/${id}/archive/`, { headers: mutationHeaders() }).json<WorkItem>(),
    error: "Couldn't restore the work item",
  });
  if (!restored) return false;
  // Keep the project's cache in step when it is loaded (a live echo would carry the same item).
  if (workItems.status[projectId] === "ready") upsertWorkItems(projectId, [restored]);
  toast.success("Work item restored");
  return true;
}
