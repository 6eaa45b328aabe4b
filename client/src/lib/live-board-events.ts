/**
 * Pure logic of the board's live channel (`project.{id}`), kept apart from the stores so it can
 * be tested without a browser: what an event means for the local cache (`planEvent`), dropping
 * events seen twice (`EventDeduper`), and holding events back while a catch-up runs after a
 * (re)connection (`LiveChannelSync`), so nothing is missed or applied twice.
 */
import type { DomainEvent } from "@tideline/shared";

/** The part of a cached work item the planner reads. */
export type CachedItem = { id: string; updated_at: string };

/** Widgets of an open work item that an event can make stale. */
export type DetailWidget = "timeline" | "links" | "attachments" | "relations" | "item";

export type EventAction =
  | { kind: "upsert"; item: ItemData }
  | { kind: "remove"; id: string }
  | {
      kind: "detail";
      issueId: string;
      widgets: DetailWidget[];
      /** Change of the item's link_count / attachment_count. */
      count?: { field: "link_count" | "attachment_count"; delta: number };
    }
  | { kind: "meta" }
  | { kind: "ignore" };

export type PlanContext = {
  isOwnMutation: (id: string | null) => boolean;
  cached: (id: string) => CachedItem | undefined;
};

function str(value: unknown): string | null {
  return typeof value === "string" && value ? value : null;
}

/** The work item a detail event is about (the presenters name it differently). */
export function issueIdOf(event: DomainEvent): string | null {
  const data = event.data as Record<string, unknown>;
  if (event.type.startsWith("subscription.")) return str(data.issue_id) ?? event.entity_id;
  return str(data.issue_id) ?? str(data.issue);
}

type ItemData = Record<string, unknown> & CachedItem & { project_id: string };

function isItem(data: Record<string, unknown>): data is ItemData {
  return typeof data.id === "string" && typeof data.updated_at === "string" && typeof data.project_id === "string";
}

/** What one event means for the cache. Our own changes were applied already: ignored. */
export function planEvent(event: DomainEvent, ctx: PlanContext): EventAction {
  if (ctx.isOwnMutation(event.client_mutation_id)) return { kind: "ignore" };
  const data = event.data as Record<string, unknown>;
  const [entity, verb] = event.type.split(".") as [string, string];
  switch (entity) {
    case "issue": {
      if (verb === "deleted") return { kind: "remove", id: event.entity_id };
      if (!isItem(data) || data.is_draft === true) return { kind: "ignore" };
      // An event older than what we hold (it raced with a catch-up) must not undo a newer state.
      const current = ctx.cached(data.id);
      if (current && current.updated_at > data.updated_at) return { kind: "ignore" };
      // Archived items stay in the cache with archived_at set (as archiveWorkItem does); views filter them.
      return { kind: "upsert", item: data };
    }
    case "comment":
    case "reaction":
    case "subscription": {
      const issueId = issueIdOf(event);
      if (!issueId) return { kind: "ignore" };
      // Comments and their reactions live in the timeline; reactions on the item and the
      // subscription come with the item's detail answer.
      const widgets: DetailWidget[] = entity === "comment" || str(data.comment) ? ["timeline"] : ["item"];
      return { kind: "detail", issueId, widgets };
    }
    case "link":
    case "attachment": {
      const issueId = issueIdOf(event);
      if (!issueId) return { kind: "ignore" };
      const field = entity === "link" ? "link_count" : "attachment_count";
      const delta = verb === "created" ? 1 : verb === "deleted" ? -1 : 0;
      return {
        kind: "detail",
        issueId,
        widgets: [entity === "link" ? "links" : "attachments", "timeline"],
        ...(delta ? { count: { field, delta } } : {}),
      };
    }
    case "relation": {
      const issueId = issueIdOf(event);
      return issueId ? { kind: "detail", issueId, widgets: ["relations", "timeline"] } : { kind: "ignore" };
    }
    case "state":
    case "label":
    case "estimate":
      return { kind: "meta" };
    default:
      return { kind: "ignore" };
  }
}

/** Remembers the last `limit` event ids: an event delivered twice is applied once. */
export class EventDeduper {
  private readonly seen = new Set<string>();
  private readonly limit: number;

  constructor(limit = 2000) {
    this.limit = limit;
  }

  /** True the first time an id is offered, false afterwards (while it is remembered). */
  accept(id: string): boolean {
    if (this.seen.has(id)) return false;
    this.seen.add(id);
    if (this.seen.size > this.limit) {
      const oldest = this.seen.values().next().value;
      if (oldest !== undefined) this.seen.delete(oldest);
    }
    return true;
  }
}

export type LiveChannelDeps = {
  /** Apply one (new, deduplicated) event to the cache. */
  apply: (event: DomainEvent) => void;
  /** Fetch what changed while we weren't listening (the delta refresh). */
  catchUp: () => Promise<void>;
  onError?: (error: unknown) => void;
  /** A catch-up starts (`catching-up`), or the last one ended (`caught-up`, or `failed`). */
  onState?: (state: CatchUpState) => void;
};

/** Where a channel's catch-up stands: the board is up to date only once it is `caught-up`. */
export type CatchUpState = "catching-up" | "caught-up" | "failed";

/**
 * One channel's event flow. After every (re)connection (`synced()`), events sent while offline
 * were lost, so the cache catches up first; events arriving meanwhile are held and applied, in
 * order, once the catch-up is done (the planner drops those older than what it fetched). A
 * second reconnection during a catch-up runs another catch-up after it.
 */
export class LiveChannelSync {
  private readonly deps: LiveChannelDeps;
  private readonly deduper: EventDeduper;
  private buffer: DomainEvent[] | null = null;
  private again = false;
  private stopped = false;

  constructor(deps: LiveChannelDeps, deduper = new EventDeduper()) {
    this.deps = deps;
    this.deduper = deduper;
  }

  get catchingUp(): boolean {
    return this.buffer !== null;
  }

  event(event: DomainEvent): void {
    if (this.stopped || !this.deduper.accept(event.id)) return;
    if (this.buffer) this.buffer.push(event);
    else this.deps.apply(event);
  }

  /** The channel (re)connected and synced: catch up, then release the held events. */
  async synced(): Promise<void> {
    if (this.stopped) return;
    if (this.buffer) {
      this.again = true;
      return;
    }
    this.buffer = [];
    this.deps.onState?.("catching-up");
    let failed = false;
    do {
      this.again = false;
      try {
        await this.deps.catchUp();
        failed = false;
      } catch (error) {
        // The held events are still applied; the caller decides when to try again.
        failed = true;
        this.deps.onError?.(error);
      }
    } while (this.again && !this.stopped);
    const held = this.buffer;
    this.buffer = null;
    if (this.stopped) return;
    for (const event of held) this.deps.apply(event);
    this.deps.onState?.(failed ? "failed" : "caught-up");
  }

  stop(): void {
    this.stopped = true;
    this.buffer = null;
  }
}

/**
 * Where a watched channel stands (lib/live.ts `channelStates`): `connecting` until it is synced
 * (and again after a close), `catching-up` while the store catches up, `live` once it has,
 * `behind` when the catch-up failed (tried again later), `refused` when the server refused or
 * closed it `forbidden`.
 */
export type ChannelStatus = "connecting" | "catching-up" | "live" | "behind" | "refused";

/** What a board's "live updates" dot says. */
export type LiveIndicatorStatus = "connected" | "connecting" | "offline" | "catchingUp" | "behind" | "refused";

/**
 * The board's dot from the socket and its channel: live (`connected`) only when the socket is
 * connected, the channel synced and the board caught up with what it missed; never while a
 * catch-up failed or the channel was refused.
 */
export function liveIndicatorStatus(
  socket: "connecting" | "connected" | "offline",
  channel: ChannelStatus | undefined,
): LiveIndicatorStatus {
  if (channel === "refused") return "refused";
  if (socket !== "connected") return socket;
  switch (channel) {
    case "live":
      return "connected";
    case "behind":
      return "behind";
    case "catching-up":
      return "catchingUp";
    default:
      return "connecting";
  }
}
