/**
 * The board's live updates: while a project's work-items screen is open it listens to
 * `project.{id}` and applies other people's changes to the work-items cache, the open item's
 * detail and the project's metadata. The decisions (what an event means, duplicates, holding
 * events during a catch-up) are in lib/live-board-events.ts; this module only carries them out.
 *
 * Rights: the copy follows them. The server closes the channel `access-changed` when the user's
 * view of the project changed (demoted to a restricted guest, promoted back, the guest setting
 * toggled): the next catch-up syncs the project again in full. It closes or refuses it
 * `forbidden` when the user lost the project: its items and local copy are dropped at once and
 * the board says the project is not available. A change of the user's own membership also
 * refreshes the project's entry (their role: what the board lets them do).
 */
import type { DomainEvent } from "@tideline/shared";
import { LIVE_CLOSE, projectChannelName } from "@tideline/shared";
import { api, HTTPError } from "../lib/api";
import { isOwnClientMutation } from "../lib/client-mutations";
import { type ChannelListener, watchSharedChannel } from "../lib/live";
import { type DetailWidget, planEvent } from "../lib/live-board-events";
import { applyCycleEvent, cycles, loadCycles } from "./cycles";
import { applyIntakeEvent, intake, loadIntake, loadIntakeCount } from "./intake";
import { applyModuleEvent, loadModules, modules } from "./modules";
import { loadProjectMeta } from "./project-meta";
import { fetchProject, fetchProjects, projects } from "./projects";
import { session } from "./session";
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
  forgetProject,
  getWorkItem,
  loadProjectWorkItems,
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

/** A membership event about the signed-in user (their role in the project or workspace changed). */
function isOwnMembership(event: DomainEvent): boolean {
  if (!event.type.startsWith("project.member.") && !event.type.startsWith("workspace.member.")) return false;
  const data = event.data as Record<string, unknown>;
  const userId = session.user?.id;
  return Boolean(userId) && (data.member === userId || data.member_id === userId);
}

/**
 * The project's entry as the server has it now (is the user still a member, with which role):
 * the board shows it, or says it is not available.
 */
async function refreshProjectEntry(slug: string, projectId: string): Promise<void> {
  await Promise.allSettled([fetchProjects(slug), fetchProject(slug, projectId)]);
}

/** Projects being dropped (one drop at a time per project). */
const losing = new Map<string, Promise<void>>();

/**
 * The user lost the project (the channel was refused `forbidden`, or the sync list answered 404):
 * its items and its local copy go at once, and the board says the project is not available
 * until the server says otherwise. Still a member after all (a channel refused while the
 * membership was being restored): the project loads again from the server.
 */
export function projectLost(slug: string, projectId: string): Promise<void> {
  const running = losing.get(projectId);
  if (running) return running;
  projects.missing[projectId] = true;
  const done = forgetProject(projectId)
    .then(() => refreshProjectEntry(slug, projectId))
    .then(() => {
      const entry = projects.bySlug[slug]?.find((p) => p.id === projectId) ?? projects.details[projectId];
      if (!projects.missing[projectId] && entry?.is_member)
        void loadProjectWorkItems(slug, projectId).catch(() => undefined);
    })
    .finally(() => losing.delete(projectId));
  losing.set(projectId, done);
  return done;
}

/** Projects whose channel said the user's access changed: their next catch-up syncs them in full. */
const accessChanged = new Set<string>();

/** The channel's catch-up: the delta (a full sync when the access changed), and what a 404 means. */
async function catchUpProject(slug: string, projectId: string): Promise<void> {
  const full = accessChanged.has(projectId);
  try {
    await refreshProject(slug, projectId, { full, fresh: true });
    if (full) accessChanged.delete(projectId);
  } catch (error) {
    if (error instanceof HTTPError && error.response.status === 404) await projectLost(slug, projectId);
    throw error;
  }
}

function applyEvent(slug: string, projectId: string, event: DomainEvent): void {
  if (isOwnMembership(event)) void refreshProjectEntry(slug, projectId);
  // Before the own-mutation check: a relation added in this tab's peek shows on its timeline too.
  applyTimelineRelationEvent(event);
  // Cycles and modules keep their own lists (pickers, filters, progress): fresh counters ride on the event.
  if (applyCycleEvent(event) || applyModuleEvent(event)) return;
  // Intake requests are not work items until accepted (which announces issue.created).
  if (applyIntakeEvent(slug, projectId, event)) return;
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
 * first catches up (the delta refresh: changed and deleted items since the newest one held; the
 * whole project again when the user's access changed).
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
        if (intake.byProject[projectId]) loadIntake(slug, projectId).catch(() => undefined);
        if (intake.counts[projectId] !== undefined) loadIntakeCount(slug, projectId).catch(() => undefined);
        await catchUpProject(slug, projectId);
      },
      accessChanged: () => {
        accessChanged.add(projectId);
      },
      refused: (reason) => {
        if (reason === LIVE_CLOSE.forbidden.reason) void projectLost(slug, projectId);
      },
    },
    listener,
  );
}
