/**
 * A workspace's live updates: while a workspace-level screen is open it listens to
 * `workspace.{id}` (events of the workspace outside any project: today its saved views) and
 * applies them to the stores that hold them; each screen's listener hears every event after.
 * One subscription per workspace, shared by every screen that watches it (ref-counted), as
 * live-board.ts does for projects.
 */
import type { DomainEvent } from "@tideline/shared";
import { workspaceChannelName } from "@tideline/shared";
import { subscribeChannel } from "../lib/live";
import { LiveChannelSync } from "../lib/live-board-events";
import { applyWorkspaceViewEvent, loadWorkspaceViews, workspaceViews } from "./workspace-views";

/** A screen's reader of a workspace's channel: every event, and each (re)sync. */
export type WorkspaceLiveListener = {
  onEvent?: (event: DomainEvent) => void;
  /** After every (re)connection: events sent meanwhile were lost, so reload what you show. */
  onSynced?: () => void;
};

type Watch = { count: number; stop: () => void; listeners: Set<WorkspaceLiveListener> };

const watches = new Map<string, Watch>();

/**
 * Listen to a workspace's live channel; returns the unsubscribe. On every (re)connection the
 * stores that are loaded reload first (events sent while offline are not replayed), and events
 * arriving meanwhile are applied after that (LiveChannelSync).
 */
export function watchWorkspaceLive(slug: string, workspaceId: string, listener?: WorkspaceLiveListener): () => void {
  let watch = watches.get(workspaceId);
  if (!watch) {
    const listeners = new Set<WorkspaceLiveListener>();
    const sync = new LiveChannelSync({
      apply: (event) => {
        applyWorkspaceViewEvent(slug, event);
        for (const l of listeners) l.onEvent?.(event);
      },
      catchUp: async () => {
        for (const l of listeners) l.onSynced?.();
        if (workspaceViews.bySlug[slug]) await loadWorkspaceViews(slug);
      },
    });
    const unsubscribe = subscribeChannel(workspaceChannelName(workspaceId), {
      onEvent: (event) => sync.event(event),
      onSynced: () => void sync.synced(),
    });
    watch = {
      count: 0,
      listeners,
      stop: () => {
        sync.stop();
        unsubscribe();
      },
    };
    watches.set(workspaceId, watch);
  }
  const current = watch;
  current.count += 1;
  if (listener) current.listeners.add(listener);
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    if (listener) current.listeners.delete(listener);
    current.count -= 1;
    if (current.count === 0) {
      current.stop();
      watches.delete(workspaceId);
    }
  };
}
