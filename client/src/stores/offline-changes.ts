/**
 * Changes made offline (issue 12): what the outbox (lib/offline/outbox.ts) does with each kind of
 * work-item change once the server answers, refuses, or the page reloads meanwhile; and when the
 * outbox opens (the signed-in user's) and sends (on reconnect).
 */
import { toast } from "sonner";
import { subscribe } from "valtio";
import { i18next } from "../i18n";
import { errorMessage } from "../lib/api";
import { connectionState } from "../lib/live";
import { outbox } from "../lib/offline/app-outbox";
import type { OutboxEntry } from "../lib/offline/outbox";
import {
  COMMENT_CREATE,
  type CommentEntryData,
  commentItemId,
  WORK_ITEM_CREATE,
  WORK_ITEM_UPDATE,
  type WorkItemEntryData,
} from "../lib/offline/work-item-entries";
import { projects } from "./projects";
import { session } from "./session";
import { type Comment, workItemDetail } from "./work-item-detail";
import {
  getWorkItem,
  holdWorkItem,
  releaseWorkItem,
  removeRemoteWorkItem,
  upsertWorkItems,
  type WorkItem,
  workItems,
} from "./work-items";

const dataOf = (entry: OutboxEntry) => entry.data as WorkItemEntryData;

/** The fields that changes still waiting for `target` will set (a rollback must leave them be). */
function fieldsStillWaiting(target: string): Set<string> {
  const fields = new Set<string>();
  for (const entry of outbox.waiting) {
    if (entry.target !== target) continue;
    for (const key of Object.keys(entry.body)) fields.add(key);
    if ("state_id" in entry.body) fields.add("state__group");
  }
  return fields;
}

/** The server's copy of an item, keeping what the cache holds that the answer leaves out or a waiting change will set. */
function adopt(answer: WorkItem, current: WorkItem | undefined): WorkItem {
  const next: WorkItem = { ...answer };
  if (current && next.description_html === undefined && current.description_html !== undefined) {
    next.description_html = current.description_html;
    next.description_stripped = current.description_stripped;
  }
  if (current) {
    const record = next as Record<string, unknown>;
    for (const key of fieldsStillWaiting(current.id)) record[key] = current[key as keyof WorkItem];
  }
  return next;
}

/**
 * Put the server's answers of replayed changes in the cache without moving the project's delta
 * mark: they are newer than other people's changes made while this page was offline, which the
 * catch-up on reconnection must still fetch.
 */
function upsertKeepingMark(projectId: string, items: WorkItem[]): void {
  const { since } = workItems.cache;
  const mark = since.get(projectId);
  upsertWorkItems(projectId, items);
  if (mark) since.set(projectId, mark);
  else since.delete(projectId);
}

async function sayRefused(entry: OutboxEntry, error: unknown): Promise<void> {
  toast.error(`Couldn't save '${entry.label}'`, { description: await errorMessage(error) });
}

outbox.register(WORK_ITEM_UPDATE, {
  applied(entry, answer) {
    const item = answer as WorkItem;
    if (!releaseWorkItem(entry.target)) return;
    upsertKeepingMark(item.project_id, [adopt(item, getWorkItem(entry.target))]);
  },
  async refused(entry, error) {
    releaseWorkItem(entry.target);
    const current = getWorkItem(entry.target);
    const before = dataOf(entry).before;
    if (current && before) {
      // Undo only this change's fields; a later waiting change of the same field stays.
      const later = fieldsStillWaiting(entry.target);
      const undo: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(before)) if (!later.has(key)) undo[key] = value;
      upsertWorkItems(current.project_id, [{ ...current, ...undo } as WorkItem]);
    }
    await sayRefused(entry, error);
  },
  restored(entry) {
    holdWorkItem(entry.target);
    const shown = dataOf(entry).shown;
    if (shown) upsertWorkItems(shown.project_id, [shown]);
  },
});

/** The project's identifier (WEB in WEB-12), from whichever workspace's list holds it. */
function identifierOf(projectId: string): string | null {
  for (const list of Object.values(projects.bySlug)) {
    const found = list.find((p) => p.id === projectId);
    if (found) return found.identifier;
  }
  return projects.details[projectId]?.identifier ?? null;
}

/**
 * An item made offline reached the server: now it has its number, say it (the toast when it was
 * made could only name its title).
 */
function sayCreated(created: WorkItem): void {
  const identifier = identifierOf(created.project_id);
  if (!identifier) return;
  toast.success(
    i18next.t("offline.createdSynced", { key: `${identifier}-${created.sequence_id}`, name: created.name }),
  );
}

outbox.register(WORK_ITEM_CREATE, {
  applied(entry, answer) {
    const created = answer as WorkItem;
    sayCreated(created);
    const temp = getWorkItem(entry.target);
    // Later waiting edits of the new item now name its real id.
    void outbox.retarget(entry.target, created.id).then((moved) => {
      for (const _ of moved) {
        releaseWorkItem(entry.target);
        holdWorkItem(created.id);
      }
    });
    const shown: WorkItem = { ...created };
    if (temp) {
      // What the waiting edits changed stays on screen until they are sent.
      const record = shown as Record<string, unknown>;
      for (const key of fieldsStillWaiting(entry.target)) record[key] = temp[key as keyof WorkItem];
    }
    removeRemoteWorkItem(entry.target);
    upsertKeepingMark(created.project_id, [shown]);
    const parent = created.parent_id ? getWorkItem(created.parent_id) : undefined;
    if (parent) upsertWorkItems(parent.project_id, [{ ...parent, sub_issues_count: parent.sub_issues_count + 1 }]);
  },
  async refused(entry, error) {
    // Its waiting edits can't apply either: they go with it.
    const gone = await outbox.discard(entry.target);
    for (const _ of gone) releaseWorkItem(entry.target);
    removeRemoteWorkItem(entry.target);
    await sayRefused(entry, error);
  },
  restored(entry) {
    const shown = dataOf(entry).shown;
    if (shown) upsertWorkItems(shown.project_id, [shown]);
  },
});

outbox.register(COMMENT_CREATE, {
  applied(entry, answer) {
    const itemId = commentItemId(entry.url);
    const detail = itemId ? workItemDetail.byId[itemId] : undefined;
    if (!detail) return;
    const comment = answer as Comment;
    const shown = detail.comments.some((c) => c.id === entry.target);
    detail.comments = shown
      ? detail.comments.map((c) => (c.id === entry.target ? comment : c))
      : [...detail.comments.filter((c) => c.id !== comment.id), comment];
    // Commenting subscribes the commenter.
    detail.isSubscribed = true;
  },
  async refused(entry, error) {
    const itemId = commentItemId(entry.url);
    const detail = itemId ? workItemDetail.byId[itemId] : undefined;
    if (detail) detail.comments = detail.comments.filter((c) => c.id !== entry.target);
    await sayRefused(entry, error);
  },
  // After a reload the comment shows again when its item's detail opens (offlineComments).
});

/** Comments made offline on an item, still waiting (shown in its timeline after a reload). */
export function offlineComments(itemId: string): Comment[] {
  return outbox.waiting
    .filter((entry) => entry.kind === COMMENT_CREATE && commentItemId(entry.url) === itemId)
    .map((entry) => (entry.data as CommentEntryData).comment);
}

let started = false;

/**
 * Open the signed-in user's outbox (and close it when they sign out), and send what waits
 * whenever the network is back. Once, from main.tsx.
 */
export function startOfflineChanges(): void {
  if (started) return;
  started = true;
  const follow = () => {
    const userId = session.user?.id;
    if (userId) void outbox.start(userId).catch(() => undefined);
    else outbox.close();
  };
  subscribe(session, follow);
  follow();
  window.addEventListener("online", () => void outbox.flush());
  // The live socket reconnecting is another sign the server can be reached again.
  subscribe(connectionState, () => {
    if (connectionState.status === "connected") void outbox.flush();
  });
}
