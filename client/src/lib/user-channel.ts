/**
 * The signed-in person's own live channel, `user.{id}`: their notifications and stickies (the
 * personal events, shared/src/live/events.ts) arrive only there. The tab subscribes to it once
 * (the workspace shell calls openUserChannel) and hands every event to the handlers the stores
 * register, so one subscription serves them all (notifications, stickies, later favorites).
 */
import { type DomainEvent, userChannelName } from "@tideline/shared";
import { subscribeChannel } from "./live";

export type UserChannelHandler = {
  onEvent: (event: DomainEvent) => void;
  /** After every (re)connection: events sent while the socket was down are lost, reload. */
  onSynced?: () => void;
};

const handlers = new Set<UserChannelHandler>();

/** Hear the user channel's events (registered once, by a store module). Returns the removal. */
export function addUserChannelHandler(handler: UserChannelHandler): () => void {
  handlers.add(handler);
  return () => {
    handlers.delete(handler);
  };
}

/** Hand one event (or a sync) to every handler; one failing handler does not starve the others. */
export function dispatchUserChannel(kind: "event", event: DomainEvent): void;
export function dispatchUserChannel(kind: "synced"): void;
export function dispatchUserChannel(kind: "event" | "synced", event?: DomainEvent): void {
  for (const handler of [...handlers]) {
    try {
      if (kind === "event" && event) handler.onEvent(event);
      else if (kind === "synced") handler.onSynced?.();
    } catch (error) {
      console.error("user channel handler failed", error);
    }
  }
}

let open: { userId: string; users: number; close: () => void } | null = null;

/**
 * Subscribe to `user.{userId}` (once per tab: a second opener shares the subscription). Returns
 * the release; the channel closes when its last opener releases it.
 */
export function openUserChannel(userId: string): () => void {
  if (open && open.userId !== userId) {
    open.close();
    open = null;
  }
  if (!open) {
    const close = subscribeChannel(userChannelName(userId), {
      onEvent: (event) => dispatchUserChannel("event", event),
      onSynced: () => dispatchUserChannel("synced"),
    });
    open = { userId, users: 0, close };
  }
  const mine = open;
  mine.users += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    mine.users -= 1;
    if (mine.users === 0 && open === mine) {
      mine.close();
      open = null;
    }
  };
}
