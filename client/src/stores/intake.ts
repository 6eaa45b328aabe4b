/**
 * A project's intake: the queue of requests (product-domain §2–§4, §9; calls-errors-sync §7
 * "Intake"; the server is live-server/src/routes/intake). One list per project:
 *
 * - Tabs: Open (pending, and snoozed whose date has not come — a snoozed request past its date
 *   is pending again) and Closed (accepted, declined, duplicate); filters (priority, status
 *   within the tab) and a sort (created_at / updated_at, newest first by default).
 * - Paging: 10 a page, cursor perPage:pageIndex:0 starting at 10:0:0; "load more" asks for the
 *   next page and merges by id (a request that moved meanwhile is not shown twice).
 * - Every change is optimistic (lib/optimistic.ts): the request takes its new status at once
 *   and leaves the tab it no longer belongs to; a refusal puts it back with a toast.
 * - Live: `intake.*` events on the project's channel (the screen and the sidebar entry watch it,
 *   stores/live-board.ts); our own echo is skipped by its client mutation id. A guest's channel
 *   carries only their own requests, as their list holds only those.
 * - The pending count (intake-count/) is the sidebar's badge: read again after every change and
 *   every event, since only the server knows what a guest may count.
 */
import { type DomainEvent, PRIORITIES, type Priority } from "@tideline/shared";
import { api, HTTPError } from "../lib/api";
import { isOwnClientMutation, mutationHeaders } from "../lib/client-mutations";
import { optimistic } from "../lib/optimistic";
import { defineStore } from "../lib/store";

export const INTAKE_STATUS = { pending: -2, declined: -1, snoozed: 0, accepted: 1, duplicate: 2 } as const;
export type IntakeStatus = (typeof INTAKE_STATUS)[keyof typeof INTAKE_STATUS];
export const INTAKE_PAGE_SIZE = 10;
export const INTAKE_FIRST_CURSOR = `${INTAKE_PAGE_SIZE}:0:0`;

export type IntakeTab = "open" | "closed";
export const INTAKE_TAB_STATUSES: Record<IntakeTab, readonly IntakeStatus[]> = {
  open: [INTAKE_STATUS.pending, INTAKE_STATUS.snoozed],
  closed: [INTAKE_STATUS.accepted, INTAKE_STATUS.declined, INTAKE_STATUS.duplicate],
};
export const INTAKE_SORTS = ["-created_at", "created_at", "-updated_at", "updated_at"] as const;
export type IntakeSort = (typeof INTAKE_SORTS)[number];

/** The list's filters: any of the chosen values in each, every filter at once (as the board's). */
export type IntakeFilters = {
  priority: Priority[];
  status: IntakeStatus[];
  /** Label ids: requests carrying any of them. */
  labels: string[];
  /** User ids: requests assigned to any of them. */
  assignees: string[];
  /** User ids: requests submitted by any of them. */
  created_by: string[];
};

/** The work item inside a request (the fields the screens read). */
export type IntakeWorkItem = {
  id: string;
  name: string;
  sequence_id: number;
  project_id: string;
  priority: Priority;
  description_html: string | null;
  state_id: string | null;
  label_ids: string[];
  assignee_ids: string[];
  created_at: string;
  updated_at: string;
  created_by: string | null;
};

/** A request as the server answers it (live-server/src/routes/intake/service.ts present()). */
export type IntakeRequest = {
  id: string;
  status: IntakeStatus;
  snoozed_till: string | null;
  duplicate_to: string | null;
  duplicate_issue_detail: { id: string; sequence_id: number; name: string; project_id: string } | null;
  source: string;
  issue: IntakeWorkItem;
  project: string;
  workspace: string;
  created_by: string | null;
  updated_by: string | null;
  created_at: string;
  updated_at: string;
};

export type IntakeLoader = "init-loader" | "mutation" | "pagination" | "loaded";

export type IntakeList = {
  tab: IntakeTab;
  filters: IntakeFilters;
  sort: IntakeSort;
  items: IntakeRequest[];
  total: number;
  nextCursor: string | null;
  loader: IntakeLoader;
  failed: boolean;
  /** The open request (also when it left the list: accepted from the Open tab, it stays shown). */
  selected: IntakeRequest | null;
  /** A request asked for that is gone or out of sight (deleted, or another guest's): said so, not loaded forever. */
  missingId: string | null;
};

export const intake = defineStore(() => ({
  byProject: {} as Record<string, IntakeList>,
  /** Pending requests per project (the sidebar badge); absent until read. */
  counts: {} as Record<string, number>,
}));

const base = (slug: string, projectId: string) => `/api/workspaces/${slug}/projects/${projectId}`;
export const NO_INTAKE_FILTERS: IntakeFilters = Object.freeze({
  priority: [],
  status: [],
  labels: [],
  assignees: [],
  created_by: [],
}) as IntakeFilters;

function listOf(projectId: string): IntakeList {
  let list = intake.byProject[projectId];
  if (!list) {
    intake.byProject[projectId] = {
      tab: "open",
      filters: { ...NO_INTAKE_FILTERS },
      sort: "-created_at",
      items: [],
      total: 0,
      nextCursor: null,
      loader: "init-loader",
      failed: false,
      selected: null,
      missingId: null,
    };
    list = intake.byProject[projectId] as IntakeList;
  }
  return list;
}

// ── pure rules ───────────────────────────────────────────────────────────────

/** The status the lists go by: a snoozed request whose date has passed is pending (§4). */
export function effectiveStatus(r: Pick<IntakeRequest, "status" | "snoozed_till">, now = Date.now()): IntakeStatus {
  if (r.status === INTAKE_STATUS.snoozed && r.snoozed_till && Date.parse(r.snoozed_till) <= now)
    return INTAKE_STATUS.pending;
  return r.status;
}

export function tabOf(r: Pick<IntakeRequest, "status" | "snoozed_till">): IntakeTab {
  return (INTAKE_TAB_STATUSES.open as readonly number[]).includes(effectiveStatus(r)) ? "open" : "closed";
}

/** The statuses a list asks for: the tab's, narrowed by the status filter. */
export function listStatuses(tab: IntakeTab, filters: IntakeFilters): IntakeStatus[] {
  const all = INTAKE_TAB_STATUSES[tab];
  const picked = filters.status.filter((s) => all.includes(s));
  return picked.length ? picked : [...all];
}

/** How many filter values are chosen (the Filters button's count). */
export function intakeFilterCount(filters: IntakeFilters): number {
  return (
    filters.priority.length +
    filters.status.length +
    filters.labels.length +
    filters.assignees.length +
    filters.created_by.length
  );
}

/** Would the server list this request under the tab and filters? */
export function matchesList(r: IntakeRequest, tab: IntakeTab, filters: IntakeFilters): boolean {
  if (!listStatuses(tab, filters).includes(effectiveStatus(r))) return false;
  if (filters.priority.length && !filters.priority.includes(r.issue.priority)) return false;
  const anyOf = (picked: readonly string[], held: readonly string[] | undefined) =>
    picked.length === 0 || (held ?? []).some((id) => picked.includes(id));
  if (!anyOf(filters.labels, r.issue.label_ids)) return false;
  if (!anyOf(filters.assignees, r.issue.assignee_ids)) return false;
  if (filters.created_by.length && !(r.created_by && filters.created_by.includes(r.created_by))) return false;
  return true;
}

/** The list's order (the server sorts by the work item's dates, id breaking ties). */
export function compareRequests(sort: IntakeSort): (a: IntakeRequest, b: IntakeRequest) => number {
  const desc = sort.startsWith("-");
  const field = sort.replace("-", "") as "created_at" | "updated_at";
  return (a, b) => {
    const x = a.issue[field] ?? a[field];
    const y = b.issue[field] ?? b[field];
    const byDate = x < y ? -1 : x > y ? 1 : 0;
    return (desc ? -byDate : byDate) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  };
}

/** The query of one page. */
export function intakeListParams(tab: IntakeTab, filters: IntakeFilters, sort: IntakeSort, cursor: string) {
  const params: Record<string, string> = {
    status: listStatuses(tab, filters).join(","),
    order_by: sort,
    per_page: String(INTAKE_PAGE_SIZE),
    cursor,
  };
  if (filters.priority.length) params.priority = filters.priority.join(",");
  if (filters.labels.length) params.labels = filters.labels.join(",");
  if (filters.assignees.length) params.assignees = filters.assignees.join(",");
  if (filters.created_by.length) params.created_by = filters.created_by.join(",");
  return params;
}

// ── reads ────────────────────────────────────────────────────────────────────

type Page = {
  results: IntakeRequest[];
  total_results: number;
  next_cursor: string;
  next_page_results: boolean;
};

/** Reads are numbered so an older answer (tab switched meanwhile) never overwrites a newer one. */
const generation = new Map<string, number>();

/** The first page of the list as its tab, filters and sort say (again, when it is shown). */
export async function loadIntake(slug: string, projectId: string, more = false): Promise<void> {
  const list = listOf(projectId);
  if (more && !list.nextCursor) return;
  const gen = (generation.get(projectId) ?? 0) + 1;
  generation.set(projectId, gen);
  list.loader = more ? "pagination" : list.items.length ? "mutation" : "init-loader";
  list.failed = false;
  try {
    const page = await api
      .get(`${base(slug, projectId)}/intake-issues/`, {
        searchParams: intakeListParams(
          list.tab,
          list.filters,
          list.sort,
          more ? (list.nextCursor ?? INTAKE_FIRST_CURSOR) : INTAKE_FIRST_CURSOR,
        ),
      })
      .json<Page>();
    if (generation.get(projectId) !== gen) return;
    if (more) {
      const held = new Set(list.items.map((r) => r.id));
      list.items.push(...page.results.filter((r) => !held.has(r.id)));
    } else list.items = page.results;
    list.total = page.total_results;
    list.nextCursor = page.next_page_results ? page.next_cursor : null;
    list.loader = "loaded";
    const selected = list.selected && page.results.find((r) => r.id === list.selected?.id);
    if (selected) list.selected = selected;
  } catch (error) {
    if (generation.get(projectId) !== gen) return;
    list.loader = "loaded";
    list.failed = true;
    throw error;
  }
}

/** The pending count (the sidebar's badge). */
export async function loadIntakeCount(slug: string, projectId: string): Promise<void> {
  const answer = await api.get(`${base(slug, projectId)}/intake-count/`).json<{ pending_count: number }>();
  intake.counts[projectId] = answer.pending_count;
}

const countTimers = new Map<string, ReturnType<typeof setTimeout>>();
/** Read the count again soon (several events in a burst ask once). */
function recount(slug: string, projectId: string): void {
  const running = countTimers.get(projectId);
  if (running) clearTimeout(running);
  countTimers.set(
    projectId,
    setTimeout(() => {
      countTimers.delete(projectId);
      loadIntakeCount(slug, projectId).catch(() => undefined);
    }, 150),
  );
}

export function setIntakeTab(slug: string, projectId: string, tab: IntakeTab): void {
  const list = listOf(projectId);
  if (list.tab === tab) return;
  list.tab = tab;
  // The status filter belongs to a tab: what it picked there means nothing here.
  list.filters.status = [];
  list.items = [];
  list.nextCursor = null;
  void loadIntake(slug, projectId).catch(() => undefined);
}

export function setIntakeFilters(slug: string, projectId: string, patch: Partial<IntakeFilters>): void {
  const list = listOf(projectId);
  list.filters = { ...list.filters, ...patch };
  void loadIntake(slug, projectId).catch(() => undefined);
}

export function clearIntakeFilters(slug: string, projectId: string): void {
  setIntakeFilters(slug, projectId, { ...NO_INTAKE_FILTERS });
}

export function setIntakeSort(slug: string, projectId: string, sort: IntakeSort): void {
  const list = listOf(projectId);
  list.sort = sort;
  void loadIntake(slug, projectId).catch(() => undefined);
}

/** Open a request: from the list, else from the server (a link, a reload, another tab's request). */
export async function selectIntake(slug: string, projectId: string, id: string | null): Promise<void> {
  const list = listOf(projectId);
  if (!id) {
    list.selected = null;
    return;
  }
  const held = list.items.find((r) => r.id === id);
  if (held) {
    list.selected = held;
    return;
  }
  if (list.selected?.id !== id) list.selected = null;
  list.missingId = null;
  try {
    const answer = await api.get(`${base(slug, projectId)}/intake-issues/${id}/`).json<IntakeRequest>();
    if (list.selected === null || list.selected.id === id) list.selected = answer;
  } catch (error) {
    if (error instanceof HTTPError && error.response.status === 404) list.missingId = id;
    throw error;
  }
}

// ── changes ──────────────────────────────────────────────────────────────────

/** Put a request where it belongs in the list (or take it out), and refresh the open copy. */
function place(projectId: string, request: IntakeRequest, known = true): void {
  const list = listOf(projectId);
  const at = list.items.findIndex((r) => r.id === request.id);
  const belongs = matchesList(request, list.tab, list.filters);
  if (at >= 0) {
    if (belongs) list.items[at] = request;
    else {
      list.items.splice(at, 1);
      list.total = Math.max(0, list.total - 1);
    }
  } else if (belongs && known) {
    list.items.push(request);
    list.items.sort(compareRequests(list.sort));
    list.total += 1;
  }
  if (list.selected?.id === request.id) list.selected = request;
}

function remove(projectId: string, id: string): void {
  const list = listOf(projectId);
  const at = list.items.findIndex((r) => r.id === id);
  if (at >= 0) {
    list.items.splice(at, 1);
    list.total = Math.max(0, list.total - 1);
  }
  if (list.selected?.id === id) {
    list.selected = null;
    list.missingId = id;
  }
}

/** A snapshot to undo with: the list's items, total and open request as they are now. */
function keep(projectId: string): () => void {
  const list = listOf(projectId);
  const items = [...list.items];
  const total = list.total;
  const selected = list.selected;
  const missingId = list.missingId;
  return () => {
    list.items = items;
    list.total = total;
    list.selected = selected;
    list.missingId = missingId;
  };
}

export type IntakeDraft = { name: string; description_html: string; priority: Priority };

/** Submit a request (any member, guests too); it goes into the Open list when that is shown. */
export async function submitIntake(
  slug: string,
  projectId: string,
  draft: IntakeDraft,
  error: string,
): Promise<IntakeRequest | undefined> {
  const created = await optimistic({
    // Nothing to show before the server numbers it: the modal stays busy until then.
    apply: () => () => undefined,
    call: () =>
      api
        .post(`${base(slug, projectId)}/intake-issues/`, {
          json: { source: "IN_APP", issue: draft },
          headers: mutationHeaders(),
        })
        .json<IntakeRequest>(),
    error,
  });
  if (created) {
    place(projectId, created);
    recount(slug, projectId);
  }
  return created;
}

export type IntakePatch = {
  status?: IntakeStatus;
  snoozed_till?: string | null;
  duplicate_to?: string | null;
  issue?: Partial<Pick<IntakeWorkItem, "name" | "description_html" | "priority">>;
};

/** The request as it will be after `patch` (what the screen shows while the server agrees). */
export function patched(r: IntakeRequest, patch: IntakePatch, duplicate?: IntakeRequest["duplicate_issue_detail"]) {
  const next: IntakeRequest = { ...r, issue: { ...r.issue, ...patch.issue } };
  if (patch.snoozed_till !== undefined) {
    next.snoozed_till = patch.snoozed_till;
    if (patch.status === undefined) next.status = patch.snoozed_till ? INTAKE_STATUS.snoozed : INTAKE_STATUS.pending;
  }
  if (patch.status !== undefined) next.status = patch.status;
  if (next.status !== INTAKE_STATUS.snoozed) next.snoozed_till = null;
  if (patch.duplicate_to !== undefined) next.duplicate_to = patch.duplicate_to;
  if (next.status !== INTAKE_STATUS.duplicate) {
    next.duplicate_to = null;
    next.duplicate_issue_detail = null;
  } else if (duplicate) next.duplicate_issue_detail = duplicate;
  return next;
}

/** Triage or edit a request; resolves to the server's copy (undefined when it refused). */
export async function updateIntake(
  slug: string,
  projectId: string,
  request: IntakeRequest,
  patch: IntakePatch,
  error: string,
  duplicate?: IntakeRequest["duplicate_issue_detail"],
): Promise<IntakeRequest | undefined> {
  const answer = await optimistic({
    apply: () => {
      const undo = keep(projectId);
      place(projectId, patched(request, patch, duplicate), false);
      return undo;
    },
    call: () =>
      api
        .patch(`${base(slug, projectId)}/intake-issues/${request.id}/`, { json: patch, headers: mutationHeaders() })
        .json<IntakeRequest>(),
    error,
  });
  if (answer) place(projectId, answer, false);
  if (patch.status !== undefined || patch.snoozed_till !== undefined) recount(slug, projectId);
  return answer;
}

export const acceptIntake = (slug: string, projectId: string, r: IntakeRequest, error: string) =>
  updateIntake(slug, projectId, r, { status: INTAKE_STATUS.accepted }, error);

export const declineIntake = (slug: string, projectId: string, r: IntakeRequest, error: string) =>
  updateIntake(slug, projectId, r, { status: INTAKE_STATUS.declined }, error);

/** Snooze until `until` (a future moment); the request stays in Open, marked snoozed. */
export const snoozeIntake = (slug: string, projectId: string, r: IntakeRequest, until: Date, error: string) =>
  updateIntake(slug, projectId, r, { status: INTAKE_STATUS.snoozed, snoozed_till: until.toISOString() }, error);

/** Clearing the snooze date returns the request to pending. */
export const unsnoozeIntake = (slug: string, projectId: string, r: IntakeRequest, error: string) =>
  updateIntake(slug, projectId, r, { snoozed_till: null }, error);

export const markIntakeDuplicate = (
  slug: string,
  projectId: string,
  r: IntakeRequest,
  target: NonNullable<IntakeRequest["duplicate_issue_detail"]>,
  error: string,
) => updateIntake(slug, projectId, r, { status: INTAKE_STATUS.duplicate, duplicate_to: target.id }, error, target);

/** Reopen a declined or duplicate request (back to pending). */
export const reopenIntake = (slug: string, projectId: string, r: IntakeRequest, error: string) =>
  updateIntake(slug, projectId, r, { status: INTAKE_STATUS.pending }, error);

export const editIntake = (
  slug: string,
  projectId: string,
  r: IntakeRequest,
  issue: NonNullable<IntakePatch["issue"]>,
  error: string,
) => updateIntake(slug, projectId, r, { issue }, error);

/** Delete a request (members and above); one not accepted takes its work item with it. */
export async function deleteIntake(slug: string, projectId: string, r: IntakeRequest, error: string): Promise<boolean> {
  const done = await optimistic({
    apply: () => {
      const undo = keep(projectId);
      remove(projectId, r.id);
      return undo;
    },
    call: () =>
      api.delete(`${base(slug, projectId)}/intake-issues/${r.id}/`, { headers: mutationHeaders() }).then(() => true),
    error,
  });
  recount(slug, projectId);
  return Boolean(done);
}

// ── live ─────────────────────────────────────────────────────────────────────

function isRequest(data: unknown): data is IntakeRequest {
  const d = data as Partial<IntakeRequest> | null;
  return Boolean(
    d && typeof d.id === "string" && typeof d.status === "number" && d.issue && typeof d.issue === "object",
  );
}

/**
 * One event of the project's channel: intake.* changes the list (unless it is our own echo)
 * and the count. Returns whether the event was an intake event.
 */
export function applyIntakeEvent(slug: string, projectId: string, event: DomainEvent): boolean {
  if (!event.type.startsWith("intake.")) return false;
  recount(slug, projectId);
  if (isOwnClientMutation(event.client_mutation_id)) return true;
  if (!intake.byProject[projectId]) return true;
  if (event.type === "intake.deleted") remove(projectId, event.entity_id);
  else if (isRequest(event.data)) {
    const list = listOf(projectId);
    const held = list.items.find((r) => r.id === event.entity_id) ?? list.selected;
    // An event older than the copy held (it raced with a read) must not undo a newer state.
    if (held?.id === event.entity_id && held.updated_at > event.data.updated_at) return true;
    place(projectId, event.data);
  }
  return true;
}

/** The priorities in the order the pickers list them. */
export const INTAKE_PRIORITIES: readonly Priority[] = PRIORITIES;
