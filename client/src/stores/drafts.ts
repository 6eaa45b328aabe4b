/**
 * The caller's draft work items in a workspace (GET /api/workspaces/:slug/draft-issues/):
 * personal, outside every list until moved to their project (draft-to-issue). Changes are
 * optimistic and undone with a toast if the server refuses.
 */
import { api } from "../lib/api";
import { mutationHeaders } from "../lib/client-mutations";
import { optimistic } from "../lib/optimistic";
import { defineStore } from "../lib/store";
import { upsertWorkItems, type WorkItem, workItems } from "./work-items";

/** Workspace draft page size (product-domain §9). */
const PAGE = 50;
const TEMP_PREFIX = "tmp-";

export type DraftList = {
  status: "loading" | "ready" | "error";
  items: WorkItem[];
  total: number;
  next: string | null;
  loadingMore: boolean;
};

export const drafts = defineStore(() => ({
  bySlug: {} as Record<string, DraftList>,
}));

type Page = { results: WorkItem[]; total_count: number; next_cursor: string; next_page_results: boolean };

const url = (slug: string) => `/api/workspaces/${slug}/draft-issues/`;

export function isTempDraft(id: string): boolean {
  return id.startsWith(TEMP_PREFIX);
}

/** Load the first page, or the next one with `more`. */
export async function loadDrafts(slug: string, more = false): Promise<void> {
  const current = drafts.bySlug[slug];
  if (more && (!current?.next || current.loadingMore)) return;
  if (more && current) current.loadingMore = true;
  else if (!current) drafts.bySlug[slug] = { status: "loading", items: [], total: 0, next: null, loadingMore: false };
  try {
    const page = await api
      .get(url(slug), { searchParams: { cursor: more && current?.next ? current.next : `${PAGE}:0:0` } })
      .json<Page>();
    const list = drafts.bySlug[slug];
    if (!list) return;
    const pending = list.items.filter((i) => isTempDraft(i.id));
    const items = more
      ? [...list.items, ...page.results.filter((i) => !list.items.some((x) => x.id === i.id))]
      : [...pending, ...page.results];
    Object.assign(list, {
      status: "ready",
      items,
      total: page.total_count + (more ? 0 : pending.length),
      next: page.next_page_results ? page.next_cursor : null,
      loadingMore: false,
    });
  } catch (error) {
    const list = drafts.bySlug[slug];
    if (list) {
      if (more) list.loadingMore = false;
      else if (list.status === "loading") list.status = "error";
    }
    throw error;
  }
}

/** Change the list; returns the undo. */
function patchList(slug: string, change: (list: DraftList) => Partial<DraftList>): () => void {
  const list = drafts.bySlug[slug];
  if (!list) return () => undefined;
  const before = { items: list.items, total: list.total };
  Object.assign(list, change(list));
  return () => {
    const now = drafts.bySlug[slug];
    if (now) Object.assign(now, before);
  };
}

/** Write a new draft in a project; it shows first in the list at once. */
export async function createDraft(
  slug: string,
  input: { project_id: string; name: string },
): Promise<WorkItem | undefined> {
  const id = `${TEMP_PREFIX}${crypto.randomUUID()}`;
  const now = new Date().toISOString();
  const placeholder: WorkItem = {
    id,
    name: input.name,
    sequence_id: 0,
    project_id: input.project_id,
    workspace_id: "",
    state_id: null,
    state__group: null,
    priority: "none",
    parent_id: null,
    estimate_point: null,
    start_date: null,
    target_date: null,
    sort_order: 0,
    completed_at: null,
    archived_at: null,
    is_draft: true,
    is_epic: false,
    type_id: null,
    cycle_id: null,
    module_ids: [],
    assignee_ids: [],
    label_ids: [],
    sub_issues_count: 0,
    link_count: 0,
    attachment_count: 0,
    created_at: now,
    updated_at: now,
    created_by: null,
    updated_by: null,
  };
  const saved = await optimistic({
    apply: () => patchList(slug, (list) => ({ items: [placeholder, ...list.items], total: list.total + 1 })),
    call: () => api.post(url(slug), { json: input, headers: mutationHeaders() }).json<WorkItem>(),
    error: "Couldn't save the draft",
  });
  if (saved) patchList(slug, (list) => ({ items: list.items.map((i) => (i.id === id ? saved : i)) }));
  return saved;
}

export async function renameDraft(slug: string, id: string, name: string): Promise<boolean> {
  const saved = await optimistic({
    apply: () => patchList(slug, (list) => ({ items: list.items.map((i) => (i.id === id ? { ...i, name } : i)) })),
    call: () => api.patch(`${url(slug)}${id}/`, { json: { name }, headers: mutationHeaders() }).json<WorkItem>(),
    error: "Couldn't rename the draft",
  });
  if (saved) patchList(slug, (list) => ({ items: list.items.map((i) => (i.id === id ? saved : i)) }));
  return Boolean(saved);
}

function withoutDraft(slug: string, id: string): () => void {
  return patchList(slug, (list) => {
    const items = list.items.filter((i) => i.id !== id);
    return { items, total: Math.max(0, list.total - (list.items.length - items.length)) };
  });
}

/** Delete a draft for good (nobody else ever saw it). */
export async function deleteDraft(slug: string, id: string): Promise<boolean> {
  const ok = await optimistic({
    apply: () => withoutDraft(slug, id),
    call: () => api.delete(`${url(slug)}${id}/`, { headers: mutationHeaders() }).then(() => true),
    error: "Couldn't delete the draft",
  });
  return Boolean(ok);
}

/** Move a draft to its project: it becomes a real work item and leaves the drafts. */
export async function publishDraft(slug: string, id: string): Promise<WorkItem | undefined> {
  const issue = await optimistic({
    apply: () => withoutDraft(slug, id),
    call: () =>
      api.post(`/api/workspaces/${slug}/draft-to-issue/${id}/`, { headers: mutationHeaders() }).json<WorkItem>(),
    error: "Couldn't move the draft to its project",
  });
  if (issue && workItems.status[issue.project_id] === "ready") upsertWorkItems(issue.project_id, [issue]);
  return issue;
}
