/**
 * Outbox entries for work-item changes (built by stores/work-items.ts, handled by
 * stores/offline-changes.ts). Each keeps what its handlers need without the page that made it:
 * the values before (to roll back a refusal) and the item as shown (to show it again after a reload).
 */
import type { Comment } from "../../stores/work-item-detail";
import type { WorkItem, WorkItemInput, WorkItemPatch } from "../../stores/work-items";
import type { NewOutboxEntry } from "./outbox";

export const WORK_ITEM_CREATE = "work-item.create";
export const WORK_ITEM_UPDATE = "work-item.update";
export const COMMENT_CREATE = "comment.create";

export type WorkItemEntryData = {
  projectId: string;
  /** The item as shown once the change was made. */
  shown: WorkItem | null;
  /** Update: the changed fields' values before it (state__group too when the state changed). */
  before?: Partial<WorkItem>;
};

/** What the toast calls a change: "Rename Plan the launch", "Move Plan the launch". */
function updateLabel(name: string, patch: WorkItemPatch): string {
  if ("name" in patch) return `Rename ${name}`;
  if ("state_id" in patch || "sort_order" in patch) return `Move ${name}`;
  return `Edit ${name}`;
}

export function workItemCreateEntry(input: {
  url: string;
  body: WorkItemInput;
  placeholder: WorkItem;
  mutationId: string;
}): NewOutboxEntry {
  const data: WorkItemEntryData = { projectId: input.placeholder.project_id, shown: input.placeholder };
  return {
    kind: WORK_ITEM_CREATE,
    mutationId: input.mutationId,
    method: "POST",
    url: input.url,
    body: input.body as Record<string, unknown>,
    target: input.placeholder.id,
    label: `Create ${input.body.name}`,
    data,
  };
}

export function workItemUpdateEntry(input: {
  url: string;
  id: string;
  projectId: string;
  patch: WorkItemPatch;
  before: WorkItem | undefined;
  shown: WorkItem | undefined;
  mutationId: string;
}): NewOutboxEntry {
  const before: Partial<WorkItem> = {};
  if (input.before) {
    for (const key of Object.keys(input.patch) as (keyof WorkItemPatch)[]) {
      (before as Record<string, unknown>)[key] = input.before[key as keyof WorkItem];
    }
    if ("state_id" in input.patch) before.state__group = input.before.state__group;
  }
  const data: WorkItemEntryData = { projectId: input.projectId, shown: input.shown ?? null, before };
  return {
    kind: WORK_ITEM_UPDATE,
    mutationId: input.mutationId,
    method: "PATCH",
    url: input.url,
    body: input.patch as Record<string, unknown>,
    target: input.id,
    label: updateLabel(input.before?.name ?? input.shown?.name ?? "the work item", input.patch),
    data,
  };
}

export type CommentEntryData = { projectId: string; comment: Comment };

/** A comment made offline: its target is the comment's temp id (the mark on it), its item is in the url. */
export function commentCreateEntry(input: {
  url: string;
  projectId: string;
  itemName: string;
  comment: Comment;
  mutationId: string;
}): NewOutboxEntry {
  const data: CommentEntryData = { projectId: input.projectId, comment: input.comment };
  return {
    kind: COMMENT_CREATE,
    mutationId: input.mutationId,
    method: "POST",
    url: input.url,
    body: { comment_html: input.comment.comment_html },
    target: input.comment.id,
    label: input.itemName ? `Comment on ${input.itemName}` : "Comment",
    data,
  };
}

/** The work item a comments/ url is about (a temp id until its create is answered). */
export function commentItemId(url: string): string | undefined {
  return /\/issues\/([^/]+)\/comments\/$/.exec(url)?.[1];
}
