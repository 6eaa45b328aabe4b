/**
 * What the work-item detail shows around the item itself: comments (with reactions), the
 * activity history, links, attachments (and uploads in progress), relations, sub-items, the
 * item's own reactions and whether the current person follows it.
 *
 * The item's own fields (title, state, dates…) live in the shared work-item cache
 * (stores/work-items.ts) so the board and the detail never disagree; this store only loads the
 * item there and keeps its description as loaded (the board's list carries none).
 *
 * Every change is applied at once and undone with a toast if the server refuses (lib/optimistic);
 * every mutating request carries a fresh x-client-mutation-id, remembered so the live layer can
 * skip the echo of our own changes (isOwnDetailMutation).
 */
import { FILE_TOO_LARGE_MESSAGE, MAX_ATTACHMENT_SIZE, STATE_GROUPS, type StateGroup } from "@tideline/shared";
import { toast } from "sonner";
import { api, errorMessage, HTTPError } from "../lib/api";
import { isOwnClientMutation, mutationHeaders, newClientMutationId } from "../lib/client-mutations";
import { outbox } from "../lib/offline/app-outbox";
import { isNoAnswer } from "../lib/offline/outbox";
import { commentCreateEntry } from "../lib/offline/work-item-entries";
import { optimistic } from "../lib/optimistic";
import { defineStore } from "../lib/store";
import { session } from "./session";
import { createWorkItem, getWorkItem, updateWorkItem, upsertWorkItems, type WorkItem } from "./work-items";

// ───────────── types (shapes as live-server/src/routes/issue-details and assets present them) ─────────────

export type ActorDetail = {
  id: string;
  first_name: string;
  last_name: string;
  display_name: string;
  avatar_url: string | null;
};

export type Reaction = {
  id: string;
  actor: string;
  actor_detail?: ActorDetail | null;
  display_name?: string | null;
  reaction: string;
  created_at: string;
};

export type Comment = {
  id: string;
  comment_html: string;
  comment_stripped: string;
  actor: string;
  actor_detail: ActorDetail | null;
  created_at: string;
  updated_at: string;
  edited_at: string | null;
  comment_reactions: Reaction[];
};

export type Activity = {
  id: string;
  created_at: string;
  verb: string;
  field: string | null;
  old_value: string | null;
  new_value: string | null;
  old_identifier: string | null;
  new_identifier: string | null;
  comment: string | null;
  actor: string | null;
  actor_detail: ActorDetail | null;
};

export type Link = {
  id: string;
  url: string;
  title: string | null;
  created_at: string;
  created_by: string | null;
  created_by_detail: ActorDetail | null;
};

export type Attachment = {
  id: string;
  attributes: { name: string; size: number; type: string };
  asset_url: string;
  created_by: string | null;
  created_at: string;
};

export const RELATION_KINDS = ["blocked_by", "blocking", "relates_to", "duplicate"] as const;
export type RelationKind = (typeof RELATION_KINDS)[number];

export type RelatedItem = {
  id: string;
  name: string;
  sequence_id: number;
  project_id: string;
  project_identifier: string;
  state_id: string | null;
  state__group: string | null;
  priority: string;
  relation_type: string;
  relation_id: string;
};

export type RelationGroups = Record<string, RelatedItem[]>;

/** An upload in progress (calls-errors-sync §4): id, name, progress (whole percent), size, type. */
export type Upload = {
  id: string;
  name: string;
  size: number;
  type: string;
  progress: number;
  status: "uploading" | "confirming" | "failed" | "canceled";
  error: string | null;
};

export type Detail = {
  status: "loading" | "ready" | "error";
  projectId: string;
  projectIdentifier: string;
  /** The description as loaded (the board's cache may drop it on a reload). */
  descriptionHtml: string;
  isSubscribed: boolean;
  reactions: Reaction[];
  comments: Comment[];
  activity: Activity[];
  timelineLoaded: boolean;
  links: Link[];
  attachments: Attachment[];
  uploads: Upload[];
  relations: RelationGroups;
  subIssues: WorkItem[];
  distribution: Record<StateGroup, string[]>;
};

export type SearchResult = {
  id: string;
  name: string;
  sequence_id: number;
  project_id: string;
  project__identifier: string;
  state__name: string | null;
  state__group: string | null;
  state__color: string | null;
  priority: string;
};

export const workItemDetail = defineStore(() => ({
  byId: {} as Record<string, Detail>,
  /** Browse keys (WEB-12) resolved to items, or "missing" after a 404. */
  keys: {} as Record<string, { id: string; projectId: string } | "missing">,
}));

const projectPath = (slug: string, projectId: string) => `/api/workspaces/${slug}/projects/${projectId}`;
const itemPath = (slug: string, projectId: string, id: string) => `${projectPath(slug, projectId)}/issues/${id}`;
const attachmentsPath = (slug: string, projectId: string, id: string) =>
  `/api/assets/v2/workspaces/${slug}/projects/${projectId}/issues/${id}/attachments/`;

// ───────────── loading ─────────────

function emptyDistribution(): Record<StateGroup, string[]> {
  return Object.fromEntries(STATE_GROUPS.map((g) => [g, [] as string[]])) as Record<StateGroup, string[]>;
}

function emptyDetail(projectId: string, identifier = ""): Detail {
  return {
    status: "loading",
    projectId,
    projectIdentifier: identifier,
    descriptionHtml: "",
    isSubscribed: false,
    reactions: [],
    comments: [],
    activity: [],
    timelineLoaded: false,
    links: [],
    attachments: [],
    uploads: [],
    relations: {},
    subIssues: [],
    distribution: emptyDistribution(),
  };
}

type DetailAnswer = WorkItem & {
  is_subscribed?: boolean;
  reactions?: Reaction[];
  links?: Link[];
  attachments?: Attachment[];
  parent?: WorkItem | null;
  project__identifier?: string;
};

const EXPAND = "reactions,links,attachments,parent";

/** Keys the detail answer adds to an item; the cache keeps the plain item. */
const DETAIL_KEYS = ["is_subscribed", "reactions", "links", "attachments", "parent", "project__identifier"] as const;

/** The cache's form of an item: the detail's extra keys stripped. */
function plainItem(answer: DetailAnswer): WorkItem {
  const copy: Record<string, unknown> = { ...answer };
  for (const key of DETAIL_KEYS) delete copy[key];
  return copy as WorkItem;
}

/**
 * The item's detail entry, made (still "loading") when the first of the parallel loads gets here:
 * the timeline, links, sub-items and relations may be asked for before the item itself has come
 * back, and must not be dropped for that (a peek on a cached item asks for them first).
 */
function detailEntry(id: string, projectId: string): Detail {
  const existing = workItemDetail.byId[id];
  if (existing) return existing;
  workItemDetail.byId[id] = emptyDetail(projectId);
  return workItemDetail.byId[id];
}

function adopt(answer: DetailAnswer, identifier: string): Detail {
  const item = plainItem(answer);
  const items = [item];
  if (answer.parent) items.push(answer.parent);
  upsertWorkItems(item.project_id, items);
  const detail = detailEntry(item.id, item.project_id);
  detail.status = "ready";
  detail.projectId = item.project_id;
  if (identifier) detail.projectIdentifier = identifier;
  detail.descriptionHtml = answer.description_html ?? "";
  detail.isSubscribed = Boolean(answer.is_subscribed);
  detail.reactions = answer.reactions ?? [];
  detail.links = answer.links ?? [];
  detail.attachments = answer.attachments ?? [];
  workItemDetail.byId[item.id] = detail;
  return detail;
}

export type LoadResult = { status: "ready"; id: string; projectId: string } | { status: "missing" };

/** The item behind a browse key (WEB-12); "missing" on 404 ("Work item not found"). */
export async function loadWorkItemByKey(slug: string, key: string): Promise<LoadResult> {
  const upper = key.toUpperCase();
  try {
    const answer = await api
      .get(`/api/workspaces/${slug}/work-items/${encodeURIComponent(upper)}/`, { searchParams: { expand: EXPAND } })
      .json<DetailAnswer>();
    adopt(answer, answer.project__identifier ?? upper.split("-")[0] ?? "");
    workItemDetail.keys[upper] = { id: answer.id, projectId: answer.project_id };
    return { status: "ready", id: answer.id, projectId: answer.project_id };
  } catch (error) {
    if (error instanceof HTTPError && (error.response.status === 404 || error.response.status === 400)) {
      workItemDetail.keys[upper] = "missing";
      return { status: "missing" };
    }
    throw error;
  }
}

/** One item by id (peek, archived page: `archived` reads it through archive/). */
export async function loadWorkItemDetail(
  slug: string,
  projectId: string,
  id: string,
  options: { identifier?: string; archived?: boolean } = {},
): Promise<LoadResult> {
  const path = options.archived ? `${itemPath(slug, projectId, id)}/archive/` : `${itemPath(slug, projectId, id)}/`;
  try {
    const answer = await api.get(path, { searchParams: { expand: EXPAND } }).json<DetailAnswer>();
    adopt(answer, options.identifier ?? "");
    return { status: "ready", id: answer.id, projectId: answer.project_id };
  } catch (error) {
    if (error instanceof HTTPError && (error.response.status === 404 || error.response.status === 400)) {
      return { status: "missing" };
    }
    // Offline: the item as the local cache holds it (title, properties; the description's live
    // document has its own offline copy). Its reactions, links and files wait for the network.
    const cached = getWorkItem(id);
    if (cached && isNoAnswer(error)) {
      const detail = detailEntry(id, cached.project_id);
      if (detail.status !== "ready") {
        detail.status = "ready";
        if (options.identifier) detail.projectIdentifier = options.identifier;
        detail.descriptionHtml = cached.description_html ?? "";
      }
      return { status: "ready", id, projectId: cached.project_id };
    }
    throw error;
  }
}

type HistoryRow = (Activity & { comment_html?: undefined }) | (Comment & { verb?: undefined });

function isComment(row: HistoryRow): row is Comment & { verb?: undefined } {
  return typeof (row as Comment).comment_html === "string";
}

function mergeById<T extends { id: string }>(current: readonly T[], incoming: readonly T[]): T[] {
  const byId = new Map(current.map((x) => [x.id, x]));
  for (const x of incoming) byId.set(x.id, x);
  return [...byId.values()];
}

const byCreated = (a: { created_at: string }, b: { created_at: string }) => a.created_at.localeCompare(b.created_at);

/** Newest created_at of what the timeline holds (the incremental fetch asks for what came after). */
function latestTimeline(detail: Detail): string | null {
  let latest: string | null = null;
  for (const row of [...detail.activity, ...detail.comments]) {
    if (!row.id.startsWith("temp-") && (!latest || row.created_at > latest)) latest = row.created_at;
  }
  return latest;
}

/**
 * Comment writes this page has seen answered, per work item. A history answer asked for before
 * one of them may not hold it (or may still hold a deleted comment): it is asked again rather
 * than shown over the newer comments — under load, a page's first history answer arrived after
 * the person's first comment and took it off the screen.
 */
const commentWrites = new Map<string, number>();
const noteCommentWrite = (id: string) => commentWrites.set(id, (commentWrites.get(id) ?? 0) + 1);

/** Activity and comments: everything at first, then only what is newer (after a change). */
export async function loadTimeline(
  slug: string,
  projectId: string,
  id: string,
  full = false,
  attempts = 3,
): Promise<void> {
  const known = workItemDetail.byId[id];
  const since = full || !known?.timelineLoaded ? null : latestTimeline(known);
  const writes = commentWrites.get(id) ?? 0;
  const rows = await api
    .get(`${itemPath(slug, projectId, id)}/history/`, { searchParams: since ? { created_at__gt: since } : {} })
    .json<HistoryRow[]>();
  if ((commentWrites.get(id) ?? 0) !== writes && attempts > 1)
    return loadTimeline(slug, projectId, id, full, attempts - 1);
  const detail = detailEntry(id, projectId);
  const comments = rows.filter(isComment);
  const activity = rows.filter((r): r is Activity & { comment_html?: undefined } => !isComment(r));
  // Comments still being sent are this page's own: no answer holds them yet.
  const pending = detail.comments.filter((c) => c.id.startsWith("temp-"));
  detail.comments = (full ? [...comments, ...pending] : mergeById(detail.comments, comments)).sort(byCreated);
  detail.activity = (full ? activity : mergeById(detail.activity, activity)).sort(byCreated);
  detail.timelineLoaded = true;
}

/** Refresh the history quietly after a change (the change itself already showed). */
export function refreshTimeline(slug: string, projectId: string, id: string): void {
  loadTimeline(slug, projectId, id).catch(() => {
    // A missed refresh shows on the next one; nothing to tell the person.
  });
}

export async function loadSubIssues(slug: string, projectId: string, id: string): Promise<void> {
  const answer = await api
    .get(`${itemPath(slug, projectId, id)}/sub-issues/`)
    .json<{ sub_issues: WorkItem[]; state_distribution: Record<StateGroup, string[]> }>();
  const detail = detailEntry(id, projectId);
  detail.subIssues = answer.sub_issues;
  detail.distribution = { ...emptyDistribution(), ...answer.state_distribution };
  upsertWorkItems(projectId, answer.sub_issues);
}

export async function loadRelations(slug: string, projectId: string, id: string): Promise<void> {
  const groups = await api.get(`${itemPath(slug, projectId, id)}/issue-relation/`).json<RelationGroups>();
  detailEntry(id, projectId).relations = groups;
}

export async function loadLinks(slug: string, projectId: string, id: string): Promise<void> {
  // The list names who added each link (the detail's expand doesn't).
  const links = await api.get(`${itemPath(slug, projectId, id)}/issue-links/`).json<Link[]>();
  detailEntry(id, projectId).links = links;
}

/** Everything around the item, in parallel; each part fails on its own. */
export async function loadDetailExtras(slug: string, projectId: string, id: string): Promise<void> {
  await Promise.allSettled([
    loadTimeline(slug, projectId, id, true),
    loadLinks(slug, projectId, id),
    loadSubIssues(slug, projectId, id),
    loadRelations(slug, projectId, id),
  ]);
}

/** Make sure an item (e.g. a newly chosen parent) is in the shared cache. */
export async function ensureWorkItem(slug: string, projectId: string, id: string): Promise<void> {
  if (getWorkItem(id)) return;
  try {
    const item = await api.get(`${itemPath(slug, projectId, id)}/`).json<DetailAnswer>();
    upsertWorkItems(item.project_id, [plainItem(item)]);
  } catch {
    // Shown without its name until the next load; nothing to tell the person.
  }
}

/** Change the item's own fields (through the shared cache), then refresh the history. */
export async function patchWorkItem(
  slug: string,
  projectId: string,
  id: string,
  patch: Parameters<typeof updateWorkItem>[3],
): Promise<WorkItem | undefined> {
  if (patch.parent_id) void ensureWorkItem(slug, projectId, patch.parent_id);
  const answer = await updateWorkItem(slug, projectId, id, patch);
  if (answer) {
    const detail = workItemDetail.byId[id];
    if (detail && answer.description_html !== undefined) detail.descriptionHtml = answer.description_html;
    refreshTimeline(slug, projectId, id);
  }
  return answer;
}

// ───────────── comments ─────────────

function me(): ActorDetail | null {
  const user = session.user;
  if (!user) return null;
  return {
    id: user.id,
    first_name: user.first_name,
    last_name: user.last_name,
    display_name: user.display_name,
    avatar_url: user.avatar_url,
  };
}

export async function addComment(slug: string, projectId: string, id: string, html: string): Promise<boolean> {
  const detail = workItemDetail.byId[id];
  const author = me();
  if (!detail || !author) return false;
  const tempId = `temp-${crypto.randomUUID()}`;
  const now = new Date().toISOString();
  const shown: Comment = {
    id: tempId,
    comment_html: html,
    comment_stripped: "",
    actor: author.id,
    actor_detail: author,
    created_at: now,
    updated_at: now,
    edited_at: null,
    comment_reactions: [],
  };
  const mutationId = newClientMutationId();
  const url = `${itemPath(slug, projectId, id)}/comments/`;
  detail.comments.push(shown);
  // Offline, behind waiting changes, or without an answer: it waits in the outbox (stores/offline-changes.ts).
  const queue = async () => {
    await outbox.enqueue(
      commentCreateEntry({ url, projectId, itemName: getWorkItem(id)?.name ?? "", comment: shown, mutationId }),
    );
    return true;
  };
  if (outbox.shouldQueue()) return queue();
  try {
    const answer = await api
      .post(url, { json: { comment_html: html }, headers: mutationHeaders(mutationId) })
      .json<Comment>();
    noteCommentWrite(id);
    // The shown copy becomes the stored one (kept even if a history answer replaced the list meanwhile).
    const current = workItemDetail.byId[id] ?? detail;
    current.comments = mergeById(
      current.comments.filter((c) => c.id !== tempId),
      [answer],
    ).sort(byCreated);
    // Commenting subscribes the commenter.
    detail.isSubscribed = true;
    return true;
  } catch (error) {
    if (isNoAnswer(error)) return queue();
    detail.comments = detail.comments.filter((c) => c.id !== tempId);
    toast.error("Couldn't add the comment", { description: await errorMessage(error) });
    return false;
  }
}

export async function updateComment(
  slug: string,
  projectId: string,
  id: string,
  commentId: string,
  html: string,
): Promise<boolean> {
  const detail = workItemDetail.byId[id];
  const comment = detail?.comments.find((c) => c.id === commentId);
  if (!detail || !comment) return false;
  const before = { comment_html: comment.comment_html, edited_at: comment.edited_at };
  const answer = await optimistic({
    apply: () => {
      comment.comment_html = html;
      comment.edited_at = new Date().toISOString();
      return () => Object.assign(comment, before);
    },
    call: () =>
      api
        .patch(`${itemPath(slug, projectId, id)}/comments/${commentId}/`, {
          json: { comment_html: html },
          headers: mutationHeaders(),
        })
        .json<Comment>(),
    error: "Couldn't update the comment",
  });
  if (!answer) return false;
  noteCommentWrite(id);
  Object.assign(comment, answer);
  return true;
}

export async function deleteComment(slug: string, projectId: string, id: string, commentId: string): Promise<boolean> {
  const detail = workItemDetail.byId[id];
  if (!detail) return false;
  const answer = await optimistic({
    apply: () => {
      const before = detail.comments;
      detail.comments = before.filter((c) => c.id !== commentId);
      return () => {
        detail.comments = before;
      };
    },
    call: () =>
      api
        .delete(`${itemPath(slug, projectId, id)}/comments/${commentId}/`, { headers: mutationHeaders() })
        .then(() => true),
    error: "Couldn't delete the comment",
  });
  if (answer) noteCommentWrite(id);
  return Boolean(answer);
}

// ───────────── reactions ─────────────

/** Add or take back the current person's reaction on a comment. */
export async function toggleCommentReaction(
  slug: string,
  projectId: string,
  id: string,
  commentId: string,
  emoji: string,
): Promise<void> {
  const comment = workItemDetail.byId[id]?.comments.find((c) => c.id === commentId);
  const author = me();
  if (!comment || !author || commentId.startsWith("temp-")) return;
  const base = `${projectPath(slug, projectId)}/comments/${commentId}/reactions/`;
  const mine = comment.comment_reactions.find((r) => r.actor === author.id && r.reaction === emoji);
  if (mine) {
    await optimistic({
      apply: () => {
        const before = comment.comment_reactions;
        comment.comment_reactions = before.filter((r) => r !== mine && r.id !== mine.id);
        return () => {
          comment.comment_reactions = before;
        };
      },
      call: () =>
        api.delete(`${base}${encodeURIComponent(mine.id.startsWith("temp-") ? emoji : mine.id)}/`, {
          headers: mutationHeaders(),
        }),
      error: "Couldn't remove the reaction",
    });
    // A history answer asked before this change is stale: it is asked again (loadTimeline).
    noteCommentWrite(id);
    return;
  }
  const tempId = `temp-${crypto.randomUUID()}`;
  const answer = await optimistic({
    apply: () => {
      comment.comment_reactions.push({
        id: tempId,
        actor: author.id,
        actor_detail: author,
        reaction: emoji,
        created_at: new Date().toISOString(),
      });
      return () => {
        comment.comment_reactions = comment.comment_reactions.filter((r) => r.id !== tempId);
      };
    },
    call: () => api.post(base, { json: { reaction: emoji }, headers: mutationHeaders() }).json<Reaction>(),
    error: "Couldn't add the reaction",
  });
  if (!answer) return;
  // A history answer asked before the reaction was stored is stale: it is asked again
  // (loadTimeline), and one that already replaced the comment's object meanwhile took the shown
  // reaction with it, so the answer goes to the comment as the list holds it now (a full e2e
  // run on a loaded machine lost a 👍 that way).
  noteCommentWrite(id);
  const current = workItemDetail.byId[id]?.comments.find((c) => c.id === commentId) ?? comment;
  const reactions = current.comment_reactions;
  if (reactions.some((r) => r.id === tempId))
    current.comment_reactions = reactions.map((r) => (r.id === tempId ? answer : r));
  else if (!reactions.some((r) => r.id === answer.id)) current.comment_reactions = [...reactions, answer];
}

/** Add or take back the current person's reaction on the work item. */
export async function toggleWorkItemReaction(
  slug: string,
  projectId: string,
  id: string,
  emoji: string,
): Promise<void> {
  const detail = workItemDetail.byId[id];
  const author = me();
  if (!detail || !author) return;
  const base = `${itemPath(slug, projectId, id)}/reactions/`;
  const mine = detail.reactions.find((r) => r.actor === author.id && r.reaction === emoji);
  if (mine) {
    await optimistic({
      apply: () => {
        const before = detail.reactions;
        detail.reactions = before.filter((r) => r.id !== mine.id);
        return () => {
          detail.reactions = before;
        };
      },
      // By value: works whether or not the server's id has arrived yet.
      call: () => api.delete(`${base}${encodeURIComponent(emoji)}/`, { headers: mutationHeaders() }),
      error: "Couldn't remove the reaction",
    });
    return;
  }
  const tempId = `temp-${crypto.randomUUID()}`;
  const answer = await optimistic({
    apply: () => {
      detail.reactions.push({ id: tempId, actor: author.id, reaction: emoji, created_at: new Date().toISOString() });
      return () => {
        detail.reactions = detail.reactions.filter((r) => r.id !== tempId);
      };
    },
    call: () => api.post(base, { json: { reaction: emoji }, headers: mutationHeaders() }).json<Reaction>(),
    error: "Couldn't add the reaction",
  });
  if (answer) detail.reactions = detail.reactions.map((r) => (r.id === tempId ? answer : r));
}

// ───────────── subscription ─────────────

export async function setSubscribed(slug: string, projectId: string, id: string, subscribed: boolean): Promise<void> {
  const detail = workItemDetail.byId[id];
  if (!detail) return;
  if (!session.user) {
    // product-domain §5: a subscription needs a known current user.
    toast.error("Couldn't change the subscription", { description: "user id not available" });
    return;
  }
  await optimistic({
    apply: () => {
      const before = detail.isSubscribed;
      detail.isSubscribed = subscribed;
      return () => {
        detail.isSubscribed = before;
      };
    },
    call: () =>
      subscribed
        ? api.post(`${itemPath(slug, projectId, id)}/subscribe/`, { headers: mutationHeaders() })
        : api.delete(`${itemPath(slug, projectId, id)}/subscribe/`, { headers: mutationHeaders() }),
    error: subscribed ? "Couldn't subscribe" : "Couldn't unsubscribe",
  });
}

// ───────────── links ─────────────

function bumpCount(id: string, key: "link_count" | "attachment_count" | "sub_issues_count", by: number): void {
  const item = getWorkItem(id);
  if (item) upsertWorkItems(item.project_id, [{ ...item, [key]: Math.max(0, item[key] + by) }]);
}

/** Add a link. Throws the server's refusal (the form shows it on its fields). */
export async function addLink(
  slug: string,
  projectId: string,
  id: string,
  input: { url: string; title: string },
): Promise<Link> {
  const link = await api
    .post(`${itemPath(slug, projectId, id)}/issue-links/`, {
      json: { url: input.url, title: input.title || null },
      headers: mutationHeaders(),
    })
    .json<Link>();
  const detail = workItemDetail.byId[id];
  if (detail) detail.links = [link, ...detail.links.filter((l) => l.id !== link.id)];
  bumpCount(id, "link_count", 1);
  refreshTimeline(slug, projectId, id);
  return link;
}

/** Edit a link. Throws the server's refusal (the form shows it). */
export async function updateLink(
  slug: string,
  projectId: string,
  id: string,
  linkId: string,
  input: { url: string; title: string },
): Promise<Link> {
  const link = await api
    .patch(`${itemPath(slug, projectId, id)}/issue-links/${linkId}/`, {
      json: { url: input.url, title: input.title || null },
      headers: mutationHeaders(),
    })
    .json<Link>();
  const detail = workItemDetail.byId[id];
  if (detail) detail.links = detail.links.map((l) => (l.id === linkId ? link : l));
  refreshTimeline(slug, projectId, id);
  return link;
}

export async function deleteLink(slug: string, projectId: string, id: string, linkId: string): Promise<void> {
  const detail = workItemDetail.byId[id];
  if (!detail) return;
  const ok = await optimistic({
    apply: () => {
      const before = detail.links;
      detail.links = before.filter((l) => l.id !== linkId);
      bumpCount(id, "link_count", -1);
      return () => {
        detail.links = before;
        bumpCount(id, "link_count", 1);
      };
    },
    call: () =>
      api
        .delete(`${itemPath(slug, projectId, id)}/issue-links/${linkId}/`, { headers: mutationHeaders() })
        .then(() => true),
    error: "Couldn't delete the link",
  });
  if (ok) refreshTimeline(slug, projectId, id);
}

// ───────────── uploads ─────────────

/** The upload was stopped by the person (calls-errors-sync §4). */
export class UploadCanceledError extends Error {
  constructor() {
    super("Upload canceled");
    this.name = "UploadCanceledError";
  }
}

type UploadData = { url: string; fields: Record<string, string> };

/**
 * POST the signed form (fields first, then the file) to the storage address WITHOUT credentials,
 * reporting progress in whole percent. XMLHttpRequest because fetch (and ky) can't report upload
 * progress.
 */
function sendToStorage(
  upload: UploadData,
  file: File,
  onProgress: (percent: number) => void,
  signal: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", upload.url);
    xhr.withCredentials = false;
    let last = -1;
    xhr.upload.onprogress = (event) => {
      if (!event.lengthComputable) return;
      const percent = Math.round((event.loaded / event.total) * 100);
      if (percent !== last) {
        last = percent;
        onProgress(percent);
      }
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(100);
        resolve();
        return;
      }
      let message = `Upload failed (${xhr.status}).`;
      try {
        const body = JSON.parse(xhr.responseText) as { error?: string };
        if (body.error) message = body.error;
      } catch {
        // S3 answers XML; the status says enough.
      }
      reject(new Error(message));
    };
    xhr.onerror = () => reject(new Error("Can't reach the server. Check your connection and try again."));
    xhr.onabort = () => reject(new UploadCanceledError());
    if (signal.aborted) {
      reject(new UploadCanceledError());
      return;
    }
    signal.addEventListener("abort", () => xhr.abort(), { once: true });
    const form = new FormData();
    for (const [key, value] of Object.entries(upload.fields)) form.append(key, value);
    form.append("file", file);
    xhr.send(form);
  });
}

const uploadControllers = new Map<string, AbortController>();

function findUpload(id: string, uploadId: string): Upload | undefined {
  return workItemDetail.byId[id]?.uploads.find((u) => u.id === uploadId);
}

/** Forget a finished, failed or canceled upload row. */
export function dismissUpload(id: string, uploadId: string): void {
  const detail = workItemDetail.byId[id];
  if (detail) detail.uploads = detail.uploads.filter((u) => u.id !== uploadId);
}

/** Stop an upload in progress: it ends with "Upload canceled". */
export function cancelUpload(uploadId: string): void {
  uploadControllers.get(uploadId)?.abort();
}

/**
 * Attach a file: refused before anything is sent when over 5 MB; otherwise request a signed
 * upload, send the file with progress, then confirm it (PATCH is_uploaded).
 */
export async function uploadAttachment(slug: string, projectId: string, id: string, file: File): Promise<void> {
  const detail = workItemDetail.byId[id];
  if (!detail) return;
  const uploadId = `upload-${crypto.randomUUID()}`;
  const row: Upload = {
    id: uploadId,
    name: file.name,
    size: file.size,
    type: file.type,
    progress: 0,
    status: "uploading",
    error: null,
  };
  if (file.size > MAX_ATTACHMENT_SIZE) {
    detail.uploads.push({ ...row, status: "failed", error: FILE_TOO_LARGE_MESSAGE });
    toast.error(`Couldn't attach ${file.name}`, { description: FILE_TOO_LARGE_MESSAGE });
    return;
  }
  detail.uploads.push(row);
  const controller = new AbortController();
  uploadControllers.set(uploadId, controller);
  const base = attachmentsPath(slug, projectId, id);
  let assetId: string | null = null;
  try {
    const requested = await api
      .post(base, { json: { name: file.name, type: file.type, size: file.size }, signal: controller.signal })
      .json<{ upload_data: UploadData; asset_id: string }>();
    assetId = requested.asset_id;
    await sendToStorage(
      requested.upload_data,
      file,
      (percent) => {
        const current = findUpload(id, uploadId);
        if (current) current.progress = percent;
      },
      controller.signal,
    );
    const current = findUpload(id, uploadId);
    if (current) current.status = "confirming";
    const attachment = await api
      .patch(`${base}${assetId}/`, { json: { is_uploaded: true }, headers: mutationHeaders() })
      .json<Attachment>();
    detail.attachments = [...detail.attachments.filter((a) => a.id !== attachment.id), attachment];
    dismissUpload(id, uploadId);
    bumpCount(id, "attachment_count", 1);
    refreshTimeline(slug, projectId, id);
  } catch (error) {
    const canceled = controller.signal.aborted || error instanceof UploadCanceledError;
    const message = canceled
      ? "Upload canceled"
      : error instanceof HTTPError
        ? await errorMessage(error)
        : error instanceof Error
          ? error.message
          : "Upload failed.";
    const current = findUpload(id, uploadId);
    if (current) {
      current.status = canceled ? "canceled" : "failed";
      current.error = message;
    }
    if (!canceled) toast.error(`Couldn't attach ${file.name}`, { description: message });
    // The unconfirmed asset row is of no use now.
    if (assetId) void api.delete(`${base}${assetId}/`).catch(() => undefined);
  } finally {
    uploadControllers.delete(uploadId);
  }
}

export async function deleteAttachment(slug: string, projectId: string, id: string, assetId: string): Promise<void> {
  const detail = workItemDetail.byId[id];
  if (!detail) return;
  const ok = await optimistic({
    apply: () => {
      const before = detail.attachments;
      detail.attachments = before.filter((a) => a.id !== assetId);
      bumpCount(id, "attachment_count", -1);
      return () => {
        detail.attachments = before;
        bumpCount(id, "attachment_count", 1);
      };
    },
    call: () =>
      api.delete(`${attachmentsPath(slug, projectId, id)}${assetId}/`, { headers: mutationHeaders() }).then(() => true),
    error: "Couldn't delete the attachment",
  });
  if (ok) refreshTimeline(slug, projectId, id);
}

/**
 * An image inside rich text (description: ISSUE_DESCRIPTION, comment: COMMENT_DESCRIPTION, page
 * body: PAGE_DESCRIPTION, where `id` is the page's):
 * the same signed-upload flow; resolves to the address the editor puts in the <img>.
 */
export async function uploadRichTextImage(
  slug: string,
  projectId: string,
  id: string,
  file: File,
  kind: "ISSUE_DESCRIPTION" | "COMMENT_DESCRIPTION" | "PAGE_DESCRIPTION",
): Promise<string> {
  if (file.size > MAX_ATTACHMENT_SIZE) throw new Error(FILE_TOO_LARGE_MESSAGE);
  const base = `/api/assets/v2/workspaces/${slug}/projects/${projectId}/`;
  const requested = await api
    .post(base, {
      json: { name: file.name, type: file.type, size: file.size, entity_type: kind, entity_identifier: id },
    })
    .json<{ upload_data: UploadData; asset_id: string; asset_url: string }>();
  await sendToStorage(requested.upload_data, file, () => undefined, new AbortController().signal);
  await api.patch(`${base}${requested.asset_id}/`, { json: { is_uploaded: true } });
  return requested.asset_url;
}

// ───────────── relations ─────────────

export async function addRelation(
  slug: string,
  projectId: string,
  id: string,
  kind: RelationKind,
  related: SearchResult,
): Promise<void> {
  const detail = workItemDetail.byId[id];
  if (!detail) return;
  if (!session.user) {
    toast.error("Couldn't add the relation", { description: "user id not available" });
    return;
  }
  const answer = await optimistic({
    apply: () => {
      const before = detail.relations;
      const next: RelationGroups = {};
      // A pair has one relation: relating again replaces the old one.
      for (const [key, list] of Object.entries(before)) next[key] = list.filter((r) => r.id !== related.id);
      next[kind] = [
        ...(next[kind] ?? []),
        {
          id: related.id,
          name: related.name,
          sequence_id: related.sequence_id,
          project_id: related.project_id,
          project_identifier: related.project__identifier,
          state_id: null,
          state__group: related.state__group,
          priority: related.priority,
          relation_type: kind,
          relation_id: `temp-${related.id}`,
        },
      ];
      detail.relations = next;
      return () => {
        detail.relations = before;
      };
    },
    // The server answers the related work items (as the reference does), not the relation map:
    // the optimistic entry stands, and the map is read again for the stored relation's id.
    call: () =>
      api
        .post(`${itemPath(slug, projectId, id)}/issue-relation/`, {
          json: { relation_type: kind, issues: [related.id] },
          headers: mutationHeaders(),
        })
        .json<unknown[]>(),
    error: "Couldn't add the relation",
  });
  if (answer) {
    loadRelations(slug, projectId, id).catch(() => {
      // The optimistic entry stays until the next load.
    });
    refreshTimeline(slug, projectId, id);
  }
}

export async function removeRelation(
  slug: string,
  projectId: string,
  id: string,
  kind: string,
  relatedId: string,
): Promise<void> {
  const detail = workItemDetail.byId[id];
  if (!detail) return;
  if (!session.user) {
    toast.error("Couldn't remove the relation", { description: "user id not available" });
    return;
  }
  const ok = await optimistic({
    apply: () => {
      const before = detail.relations;
      detail.relations = { ...before, [kind]: (before[kind] ?? []).filter((r) => r.id !== relatedId) };
      return () => {
        detail.relations = before;
      };
    },
    call: () =>
      api
        .post(`${itemPath(slug, projectId, id)}/remove-relation/`, {
          json: { relation_type: kind, related_issue: relatedId },
          headers: mutationHeaders(),
        })
        .then(() => true),
    error: "Couldn't remove the relation",
  });
  if (ok) refreshTimeline(slug, projectId, id);
}

// ───────────── sub-items ─────────────

function setSubIssues(detail: Detail, list: WorkItem[]): void {
  detail.subIssues = list;
  const distribution = emptyDistribution();
  for (const item of list) {
    const group = item.state__group as StateGroup | null;
    if (group && group in distribution) distribution[group].push(item.id);
  }
  detail.distribution = distribution;
}

/** Make existing items sub-items of this one (POST sub-issues/ {sub_issue_ids}). */
export async function addSubIssues(
  slug: string,
  projectId: string,
  id: string,
  picked: readonly SearchResult[],
): Promise<void> {
  const detail = workItemDetail.byId[id];
  if (!detail || picked.length === 0) return;
  const answer = await optimistic({
    apply: () => {
      const before = detail.subIssues;
      const known = picked.map((p) => getWorkItem(p.id)).filter((w): w is WorkItem => Boolean(w));
      setSubIssues(detail, mergeById(before, known));
      return () => setSubIssues(detail, before);
    },
    call: () =>
      api
        .post(`${itemPath(slug, projectId, id)}/sub-issues/`, {
          json: { sub_issue_ids: picked.map((p) => p.id) },
          headers: mutationHeaders(),
        })
        .json<{ sub_issues: WorkItem[] }>(),
    error: getWorkItem(id)?.is_epic ? "Couldn't add the work items" : "Couldn't add the sub-items",
  });
  if (!answer) return;
  setSubIssues(detail, answer.sub_issues);
  upsertWorkItems(projectId, answer.sub_issues);
  const item = getWorkItem(id);
  if (item) upsertWorkItems(projectId, [{ ...item, sub_issues_count: answer.sub_issues.length }]);
  refreshTimeline(slug, projectId, id);
}

/** Create a new item as a sub-item of this one. */
export async function createSubIssue(slug: string, projectId: string, id: string, name: string): Promise<boolean> {
  const detail = workItemDetail.byId[id];
  if (!detail) return false;
  try {
    const created = await createWorkItem(slug, projectId, { name, parent_id: id });
    setSubIssues(detail, [...detail.subIssues.filter((s) => s.id !== created.id), created]);
    refreshTimeline(slug, projectId, id);
    return true;
  } catch (error) {
    // An epic's children are its work items, not sub-items.
    const what = getWorkItem(id)?.is_epic ? "work item" : "sub-item";
    toast.error(`Couldn't create the ${what}`, { description: await errorMessage(error) });
    return false;
  }
}

/** Detach a sub-item (its parent is cleared). */
export async function removeSubIssue(slug: string, projectId: string, id: string, childId: string): Promise<void> {
  const detail = workItemDetail.byId[id];
  if (!detail) return;
  const before = detail.subIssues;
  setSubIssues(
    detail,
    before.filter((s) => s.id !== childId),
  );
  bumpCount(id, "sub_issues_count", -1);
  const answer = await updateWorkItem(slug, projectId, childId, { parent_id: null });
  if (!answer) {
    // updateWorkItem already said why in a toast.
    setSubIssues(detail, before);
    bumpCount(id, "sub_issues_count", 1);
    return;
  }
  refreshTimeline(slug, projectId, id);
}

/** Keep the sub-item list in step with changes made to its items elsewhere (state from the board). */
export function syncSubIssue(id: string, child: WorkItem): void {
  const detail = workItemDetail.byId[id];
  if (!detail) return;
  const index = detail.subIssues.findIndex((s) => s.id === child.id);
  const current = detail.subIssues[index];
  if (!current) return;
  // Compared by value: the list holds its own copies of the cache's items.
  if (
    current.state_id === child.state_id &&
    current.name === child.name &&
    current.updated_at === child.updated_at &&
    current.sequence_id === child.sequence_id
  )
    return;
  const next = [...detail.subIssues];
  next[index] = child;
  setSubIssues(detail, next);
}

// ───────────── pickers ─────────────

/** Items for the parent, sub-item and relation pickers (GET search-issues/). */
export async function searchForPicker(
  slug: string,
  projectId: string,
  id: string,
  search: string,
  mode: "parent" | "sub_issue" | "issue_relation",
): Promise<SearchResult[]> {
  return api
    .get(`${projectPath(slug, projectId)}/search-issues/`, {
      searchParams: { search, issue_id: id, [mode]: "true", per_page: "20" },
    })
    .json<SearchResult[]>();
}

// ───────────── archive / restore ─────────────

/** Restore an archived item (DELETE archive/); the answer is the item. */
export async function restoreWorkItem(slug: string, projectId: string, id: string): Promise<boolean> {
  const item = getWorkItem(id);
  const answer = await optimistic({
    apply: () => {
      if (item) upsertWorkItems(projectId, [{ ...item, archived_at: null }]);
      return () => {
        if (item) upsertWorkItems(projectId, [item]);
      };
    },
    call: () =>
      api.delete(`${itemPath(slug, projectId, id)}/archive/`, { headers: mutationHeaders() }).json<WorkItem>(),
    error: "Couldn't restore the work item",
  });
  if (!answer) return false;
  const current = getWorkItem(id);
  upsertWorkItems(projectId, [{ ...(current ?? answer), ...answer }]);
  refreshTimeline(slug, projectId, id);
  return true;
}

/** Did this client send the change with this x-client-mutation-id? (One list for every store.) */
export const isOwnDetailMutation = isOwnClientMutation;
