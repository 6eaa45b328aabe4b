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
 * - `connectionState`: a valtio store for the "live updates" indicator.
 *
 * When the server ends the tab's session (sign-out elsewhere, password change or reset,
 * deactivation) it closes the socket with `unauthorized` (4401), or refuses documents with that
 * reason: the tab stops reconnecting and goes to sign-in (back to this page afterwards). When a
 * document's access changes (`access-changed`: demoted to guest, page locked…), the document
 * authenticates again on the same socket to learn its new scope.
 */
import { HocuspocusProvider, HocuspocusProviderWebsocket } from "@hocuspocus/provider";
import { type DomainEvent, LIVE_CLOSE, LIVE_PATH, parseLiveStateless } from "@tideline/shared";
import { proxy } from "valtio";
import * as Y from "yjs";
import { signInPathFor } from "./api.ts";
import { LiveChannelSync } from "./live-board-events.ts";
import { forgetKeptAnswers } from "./offline/last-answers.ts";

export type ConnectionStatus = "connecting" | "connected" | "offline";

export const connectionState = proxy({ status: "offline" as ConnectionStatus });

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
  /** The server refused the channel (no access, signed out). */
  onRefused?: (reason: string) => void;
};

/** Listen to a content-less channel; returns the unsubscribe. */
export function subscribeChannel(name: string, handlers: ChannelHandlers): () => void {
  const provider = new HocuspocusProvider({
    name,
    websocketProvider: liveSocket(),
    // A channel has no shared state: no awareness traffic.
    awareness: null,
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
  });
  provider.attach();
  return () => provider.destroy();
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
};

type SharedChannel = { count: number; listeners: Set<ChannelListener>; stop: () => void };

/** One subscription per channel name, shared by every screen that watches it. */
const sharedChannels = new Map<string, SharedChannel>();

/**
 * Watch a channel that several screens may hold at once (the board, the cycles page and a
 * cycle's panel all watch `project.{id}`): they share one subscription, counted, and closed with
 * the last watcher; returns the unwatch. The first watcher's `store` serves the subscription.
 * On every (re)connection the listeners hear `onSynced`, then the store catches up, and events
 * arriving meanwhile are held until it is done (LiveChannelSync); each event reaches the store
 * first, then every listener.
 */
export function watchSharedChannel(name: string, store: SharedChannelStore, listener?: ChannelListener): () => void {
  let channel = sharedChannels.get(name);
  if (!channel) {
    const listeners = new Set<ChannelListener>();
    const sync = new LiveChannelSync({
      apply: (event) => {
        store.apply(event);
        for (const l of listeners) l.onEvent?.(event);
      },
      catchUp: async () => {
        for (const l of listeners) l.onSynced?.();
        await store.catchUp();
      },
    });
    const unsubscribe = subscribeChannel(name, {
      onEvent: (event) => sync.event(event),
      onSynced: () => void sync.synced(),
    });
    channel = {
      count: 0,
      listeners,
      stop: () => {
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
