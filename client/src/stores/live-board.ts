/**
 * The board's live updates: while a project's work-items screen is open it listens to
 * `project.{id}` and applies other people's changes to the work-items cache, the open item's
 * detail and the project's metadata. The decisions (what an event means, duplicates, holding
 * events during a catch-up) are in lib/live-board-events.ts; this module only carries them out.
 */
import type { DomainEvent } from "@tideline/shared";
import { projectChannelName } from "@tideline/shared";
import { api } from "../lib/api";
import { isOwnClientMutation } from "../lib/client-mutations";
import { type ChannelListener, watchSharedChannel } from "../lib/live";
import { type DetailWidget, planEvent } from "../lib/live-board-events";
import { applyCycleEvent, cycles, loadCycles } from "./cycles";
import { applyModuleEvent, loadModules, modules } from "./modules";
import { loadProjectMeta } from "./project-meta";
import { applyTimelineRelationEvent, resyncTimelineRelations } from "./timeline-relations";
import {
  type Attachment,
  loadLinks,
  loadRelations,
  type Reaction,
  refreshTimeline,
  workItemDetail,
} from "./work-item-detail";
import {
  applyRemoteWorkItem,
  getWorkItem,
  refreshProject,
  removeRemoteWorkItem,
  upsertWorkItems,
  type WorkItem,
} from "./work-items";

const itemPath = (slug: string, projectId: string, id: string) =>
  `/api/workspaces/${slug}/projects/${projectId}/issues/${id}`;

/** Reactions, subscription and attachments of an open item, without touching its description. */
async function refreshDetailItem(slug: string, projectId: string, id: string): Promise<void> {
  const answer = await api
    .get(`${itemPath(slug, projectId, id)}/`, { searchParams: { expand: "reactions,attachments" } })
    .json<{ is_subscribed?: boolean; reactions?: Reaction[]; attachments?: Attachment[] }>();
  const detail = workItemDetail.byId[id];
  if (!detail) return;
  detail.isSubscribed = Boolean(answer.is_subscribed);
  detail.reactions = answer.reactions ?? [];
  detail.attachments = answer.attachments ?? [];
}

function refreshWidgets(slug: string, projectId: string, issueId: string, widgets: readonly DetailWidget[]) {
  const detail = workItemDetail.byId[issueId];
  // Only an item whose detail is loaded (peek or page) has widgets to refresh.
  if (detail?.status !== "ready") return;
  const quiet = () => undefined;
  for (const widget of new Set(widgets)) {
    if (widget === "timeline") refreshTimeline(slug, projectId, issueId);
    else if (widget === "links") loadLinks(slug, projectId, issueId).catch(quiet);
    else if (widget === "relations") loadRelations(slug, projectId, issueId).catch(quiet);
    // "item" and "attachments": both come with the item's answer.
    else refreshDetailItem(slug, projectId, issueId).catch(quiet);
  }
}

function applyEvent(slug: string, projectId: string, event: DomainEvent): void {
  // Before the own-mutation check: a relation added in this tab's peek shows on its timeline too.
  applyTimelineRelationEvent(event);
  // Cycles and modules keep their own lists (pickers, filters, progress): fresh counters ride on the event.
  if (applyCycleEvent(event) || applyModuleEvent(event)) return;
  const action = planEvent(event, { isOwnMutation: isOwnClientMutation, cached: getWorkItem });
  switch (action.kind) {
    case "upsert":
      applyRemoteWorkItem(action.item as unknown as WorkItem);
      return;
    case "remove":
      removeRemoteWorkItem(action.id);
      return;
    case "detail": {
      const item = getWorkItem(action.issueId);
      if (item && action.count) {
        const { field, delta } = action.count;
        upsertWorkItems(item.project_id, [{ ...item, [field]: Math.max(0, item[field] + delta) }]);
      }
      refreshWidgets(slug, projectId, action.issueId, action.widgets);
      return;
    }
    case "meta":
      loadProjectMeta(slug, projectId, true).catch(() => undefined);
      return;
    case "ignore":
      return;
  }
}

/** Extra readers of a project's channel (the cycles and modules stores): every event, and each (re)sync. */
export type ProjectLiveListener = ChannelListener;

/**
 * Listen to a project's live channel; returns the unsubscribe. On every (re)connection the cache
 * first catches up (the delta refresh: changed and deleted items since the newest one held).
 * Several screens (the board, the cycles page, a cycle's panel) may watch the same project at
 * once: they share one subscription, and each `listener` hears every event after the work-items
 * cache has applied it.
 */
export function watchProjectLive(slug: string, projectId: string, listener?: ProjectLiveListener): () => void {
  return watchSharedChannel(
    projectChannelName(projectId),
    {
      apply: (event) => applyEvent(slug, projectId, event),
      catchUp: async () => {
        resyncTimelineRelations(projectId);
        // Lists already loaded may have missed events while we were away.
        if (cycles.byProject[projectId]) loadCycles(slug, projectId, true).catch(() => undefined);
        if (modules.byProject[projectId]) loadModules(slug, projectId, true).catch(() => undefined);
        await refreshProject(slug, projectId);
      },
    },
    listener,
  );
}
