/**
 * A workspace's live updates: while a workspace-level screen is open it listens to
 * `workspace.{id}` (events of the workspace outside any project: today its saved views) and
 * applies them to the stores that hold them; each screen's listener hears every event after.
 * One subscription per workspace, shared by every screen that watches it (lib/live.ts
 * watchSharedChannel), as for projects.
 */
import { workspaceChannelName } from "@tideline/shared";
import { type ChannelListener, watchSharedChannel } from "../lib/live";
import { applyWorkspaceViewEvent, loadWorkspaceViews, workspaceViews } from "./workspace-views";

/** A screen's reader of a workspace's channel: every event, and each (re)sync. */
export type WorkspaceLiveListener = ChannelListener;

/**
 * Listen to a workspace's live channel; returns the unsubscribe. On every (re)connection the
 * stores that are loaded reload first (events sent while offline are not replayed), and events
 * arriving meanwhile are applied after that.
 */
export function watchWorkspaceLive(slug: string, workspaceId: string, listener?: WorkspaceLiveListener): () => void {
  return watchSharedChannel(
    workspaceChannelName(workspaceId),
    {
      apply: (event) => applyWorkspaceViewEvent(slug, event),
      catchUp: async () => {
        if (workspaceViews.bySlug[slug]) await loadWorkspaceViews(slug);
      },
    },
    listener,
  );
}
