/**
 * The live layer's client side: one WebSocket per tab (`HocuspocusProviderWebsocket` on
 * LIVE_PATH, same origin, so the session cookie authenticates it), opened on first use and
 * reconnecting on its own, with many documents multiplexed over it (shared/src/live/protocol.ts).
 *
 * - `subscribeChannel(name, handlers)`: a content-less channel (`project.{id}`, `user.{id}`) whose
 *   stateless messages carry domain events; `onSynced` fires after every (re)connection so the
 *   caller can catch up on what it missed while offline.
 * - `watchSharedChannel(name, store, listener)`: the same, ref-counted for screens that share one
 *   channel (one subscription per name), with the owning store catching up on every (re)sync.
 * - `openDocument(name)`: a Y.Doc document (page and issue editors), reopened afresh when the
 *   server closes it with `document-reset` (its copy belongs to a replaced generation).
 * - `connectionState`: a valtio store of the socket for the "live updates" indicator, and
 *   `channelStates`: where each shared channel stands (catching up, live, behind after a failed
 *   catch-up — tried again on its own —, refused), so a board says it is live only when it is.
 *
 * When the server ends the tab's session (sign-out elsewhere, password change or reset,
 * deactivation) it closes the socket with `unauthorized` (4401), or refuses documents with that
 * reason: the tab stops reconnecting and goes to sign-in (back to this page afterwards). When a
 * document's access changes (`access-changed`: demoted to guest, page locked…, or a project
 * channel's guest restriction changed), the document authenticates again on the same socket to
 * learn its new scope; a channel's store is told first (its copy must follow the new rights) and
 * catches up once the channel is synced again. A channel closed or refused `forbidden` (the
 * project was lost) tells its store so.
 */
import { HocuspocusProvider, HocuspocusProviderWebsocket } from "@hocuspocus/provider";
import { type DomainEvent, LIVE_CLOSE, LIVE_PATH, parseLiveStateless } from "@tideline/shared";
import { proxy } from "valtio";
import * as Y from "yjs";
import { signInPathFor } from "./api.ts";
import { type ChannelStatus, LiveChannelSync } from "./live-board-events.ts";
import { forgetKeptAnswers } from "./offline/last-answers.ts";

export type ConnectionStatus = "connecting" | "connected" | "offline";

export const connectionState = proxy({ status: "offline" as ConnectionStatus });

/** Where each watched shared channel stands (watchSharedChannel), by channel name. */
export const channelStates = proxy<Record<string, ChannelStatus>>({});

let socket: HocuspocusProviderWebsocket | null = null;
let sessionOver = false;

/** The server ended this tab's session: stop reconnecting (every try would be refused) and sign in again. */
function sessionEnded(): void {
  if (sessionOver) return;
  sessionOver = true;
  connectionState.status = "offline";
  socket?.disconnect();
  const signIn = signInPathFor();
  void forgetKeptAnswers().then(() => window.location.assign(signIn));
}

/** Whether a refusal or close reason means the session is gone. */
const isSignedOut = (reason: string | undefined) => reason === LIVE_CLOSE.unauthorized.reason;

function liveUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === "https:" ? "wss:" : "ws:"}//${host}${LIVE_PATH}`;
}

/** The tab's WebSocket, created on first use. */
export function liveSocket(): HocuspocusProviderWebsocket {
  if (socket) return socket;
  connectionState.status = "connecting";
  socket = new HocuspocusProviderWebsocket({
    url: liveUrl(),
    // Retry for ever (the default gives up), backing off to 30 s between attempts.
    maxAttempts: 0,
    maxDelay: 30_000,
    onStatus: ({ status }) => {
      if (sessionOver) return;
      connectionState.status =
        status === "connected" ? "connected" : status === "connecting" ? "connecting" : "offline";
    },
    onClose: ({ event }) => {
      if (event.code === LIVE_CLOSE.unauthorized.code) sessionEnded();
    },
  });
  // The browser knows it lost the network before the socket notices (an open WebSocket can
  // linger for a long time): say so at once; the socket's own status takes over when it changes.
  window.addEventListener("offline", () => {
    connectionState.status = "offline";
  });
  // Back online: try at once instead of waiting for the next back-off step.
  window.addEventListener("online", () => {
    if (!socket || sessionOver) return;
    // The socket may have survived the outage: then it is simply live again.
    if (socket.status === "connected") connectionState.status = "connected";
    else void socket.connect();
  });
  return socket;
}

export type ChannelHandlers = {
  onEvent: (event: DomainEvent) => void;
  /** After the first connection and after every reconnection (events sent meanwhile were lost). */
  onSynced?: () => void;
  /** The server refused or closed the channel (no access: `forbidden`; signed out). */
  onRefused?: (reason: string) => void;
  /**
   * The server closed the channel `access-changed` (the user's rights in it changed): it is
   * authenticated again at once, and `onSynced` follows once it is synced again.
   */
  onAccessChanged?: () => void;
  /** The channel is no longer connected (the socket closed, or the server closed it otherwise). */
  onDisconnected?: () => void;
};

/** Listen to a content-less channel; returns the unsubscribe. */
export function subscribeChannel(name: string, handlers: ChannelHandlers): () => void {
  let destroyed = false;
  const provider: HocuspocusProvider = new HocuspocusProvider({
    name,
    websocketProvider: liveSocket(),
    // A channel has no shared state: no awareness traffic.
    awareness: null,
    // Its own address on the socket (name + session id), as documents have: a screen that stops
    // watching a channel while the next screen starts watching it (the board → an epic's page)
    // sends a close and a new subscription under one name; with the plain name the server's
    // close of the old subscription landed on the new one, which then heard no event at all.
    sessionAwareness: true,
    onStateless: ({ payload }) => {
      const message = parseLiveStateless(payload);
      if (message) handlers.onEvent(message.event);
    },
    onSynced: ({ state }) => {
      if (state) handlers.onSynced?.();
    },
    onAuthenticationFailed: ({ reason }) => {
      if (isSignedOut(reason)) sessionEnded();
      handlers.onRefused?.(reason);
    },
    // The server's close of this channel (a close message), and the socket's own closes.
    onClose: ({ event }) => {
      if (destroyed) return;
      if (event.reason === LIVE_CLOSE.accessChanged.reason) {
        handlers.onAccessChanged?.();
        // Same socket: authenticate again and get the new scope, as documents do (openDocument).
        queueMicrotask(() => {
          if (!destroyed && socket?.status === "connected") void provider.onOpen(new Event("open"));
        });
        return;
      }
      if (event.reason === LIVE_CLOSE.forbidden.reason) {
        handlers.onRefused?.(event.reason);
        return;
      }
      handlers.onDisconnected?.();
    },
  });
  provider.attach();
  return () => {
    destroyed = true;
    provider.destroy();
  };
}

/** A screen's reader of a shared channel: every event (after the owning store applied it), and each (re)sync. */
export type ChannelListener = {
  onEvent?: (event: DomainEvent) => void;
  /** After every (re)connection: events sent meanwhile were lost, so reload what you show. */
  onSynced?: () => void;
};

/** What the store that owns a shared channel does with it. */
export type SharedChannelStore = {
  /** Apply one (new, deduplicated) event to the store. */
  apply: (event: DomainEvent) => void;
  /** Reload what the store holds after a (re)connection (events sent while offline are not replayed). */
  catchUp: () => Promise<void>;
  /** The user's rights in the channel changed (`access-changed`): the next catch-up follows them. */
  accessChanged?: () => void;
  /** The server refused or closed the channel (`forbidden`: no access any more). */
  refused?: (reason: string) => void;
};

type SharedChannel = { count: number; listeners: Set<ChannelListener>; stop: () => void };

/** A failed catch-up is tried again after these delays (the last one repeats), while the channel is watched. */
const RETRY_DELAYS_MS = [2_000, 5_000, 10_000, 30_000];

/** One subscription per channel name, shared by every screen that watches it. */
const sharedChannels = new Map<string, SharedChannel>();

/**
 * Watch a channel that several screens may hold at once (the board, the cycles page and a
 * cycle's panel all watch `project.{id}`): they share one subscription, counted, and closed with
 * the last watcher; returns the unwatch. The first watcher's `store` serves the subscription.
 * On every (re)connection the listeners hear `onSynced`, then the store catches up, and events
 * arriving meanwhile are held until it is done (LiveChannelSync); each event reaches the store
 * first, then every listener. `channelStates[name]` says where the channel stands; a failed
 * catch-up leaves it `behind` and is tried again after a while (and at every reconnection).
 */
export function watchSharedChannel(name: string, store: SharedChannelStore, listener?: ChannelListener): () => void {
  let channel = sharedChannels.get(name);
  if (!channel) {
    const listeners = new Set<ChannelListener>();
    let retry: ReturnType<typeof setTimeout> | null = null;
    let failures = 0;
    let stopped = false;
    const status = (next: ChannelStatus) => {
      if (!stopped) channelStates[name] = next;
    };
    const cancelRetry = () => {
      if (retry) clearTimeout(retry);
      retry = null;
    };
    const sync = new LiveChannelSync({
      apply: (event) => {
        store.apply(event);
        for (const l of listeners) l.onEvent?.(event);
      },
      catchUp: async () => {
        for (const l of listeners) l.onSynced?.();
        await store.catchUp();
      },
      onState: (state) => {
        if (state === "catching-up") {
          status("catching-up");
          return;
        }
        // Closed or refused while it ran: that says more than the catch-up's end.
        if (channelStates[name] !== "catching-up") return;
        if (state === "caught-up") {
          failures = 0;
          status("live");
          return;
        }
        status("behind");
        cancelRetry();
        const delay = RETRY_DELAYS_MS[Math.min(failures, RETRY_DELAYS_MS.length - 1)] as number;
        failures += 1;
        retry = setTimeout(() => {
          retry = null;
          // Offline: the reconnection catches up anyway.
          if (!stopped && socket?.status === "connected") void sync.synced();
        }, delay);
      },
    });
    status("connecting");
    const unsubscribe = subscribeChannel(name, {
      onEvent: (event) => sync.event(event),
      onSynced: () => {
        cancelRetry();
        // Also when a catch-up is running: it runs once more, and its end says where we stand.
        status("catching-up");
        void sync.synced();
      },
      onAccessChanged: () => {
        status("connecting");
        store.accessChanged?.();
      },
      onRefused: (reason) => {
        cancelRetry();
        // No access (`forbidden`); any other refusal (too many clients…) leaves the board without
        // live updates all the same: not up to date.
        status(reason === LIVE_CLOSE.forbidden.reason ? "refused" : "behind");
        store.refused?.(reason);
      },
      onDisconnected: () => {
        if (channelStates[name] !== "refused") status("connecting");
      },
    });
    channel = {
      count: 0,
      listeners,
      stop: () => {
        stopped = true;
        cancelRetry();
        delete channelStates[name];
        sync.stop();
        unsubscribe();
      },
    };
    sharedChannels.set(name, channel);
  }
  const current = channel;
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
      sharedChannels.delete(name);
    }
  };
}

export type OpenDocument = {
  /** The current provider and Y.Doc; both are replaced after a `document-reset`. */
  readonly provider: HocuspocusProvider;
  readonly doc: Y.Doc;
  /** Called with the new provider/doc after a reset (editors rebuild on it). */
  onReset: (listener: (next: { provider: HocuspocusProvider; doc: Y.Doc }) => void) => () => void;
  close: () => void;
};

/**
 * Open a Y.Doc document (`page.{id}`, `issue.{id}`). When the server closes it with
 * `document-reset`, the local copy is discarded (merging it would duplicate the text) and the
 * document is opened afresh.
 */
export function openDocument(name: string): OpenDocument {
  const listeners = new Set<(next: { provider: HocuspocusProvider; doc: Y.Doc }) => void>();
  let closed = false;
  let current = open();

  function open(): { provider: HocuspocusProvider; doc: Y.Doc } {
    const doc = new Y.Doc();
    const provider: HocuspocusProvider = new HocuspocusProvider({
      name,
      document: doc,
      websocketProvider: liveSocket(),
      // Each copy gets its own address on the socket (name + session id): after a reset, frames
      // of the replaced copy still in flight can't land on the new one (the server would queue
      // them under the shared name and replay them once the new copy authenticates, refusing it
      // again). Hocuspocus 4 servers support this.
      sessionAwareness: true,
      onAuthenticationFailed: ({ reason }) => {
        if (isSignedOut(reason)) sessionEnded();
      },
      onClose: ({ event }) => {
        if (closed) return;
        if (event.reason === LIVE_CLOSE.accessChanged.reason) {
          // Same copy, same socket: authenticate again and get the new scope (read-only or not).
          queueMicrotask(() => {
            if (!closed && current.provider === provider && socket?.status === "connected") {
              void provider.onOpen(new Event("open"));
            }
          });
          return;
        }
        if (event.reason !== LIVE_CLOSE.documentReset.reason) return;
        // Leave the close handler before tearing the provider down.
        queueMicrotask(reset);
      },
    });
    provider.attach();
    return { provider, doc };
  }

  function reset(): void {
    if (closed) return;
    // The server has already closed this document's connection. Detaching the old provider
    // normally sends a Close for the name; the server would queue it (no connection by that
    // name) and apply it to the new connection as soon as that one authenticates, leaving the
    // new copy unsynced. Forget the old provider without telling the server.
    liveSocket().configuration.providerMap.delete(current.provider.effectiveName);
    current.provider.destroy();
    current.doc.destroy();
    current = open();
    for (const listener of listeners) listener(current);
  }

  return {
    get provider() {
      return current.provider;
    },
    get doc() {
      return current.doc;
    },
    onReset(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      closed = true;
      listeners.clear();
      current.provider.destroy();
      current.doc.destroy();
    },
  };
}
