/**
 * Helpers for the live layer's tests: a real server on port 0, real Hocuspocus providers over
 * Node WebSockets (the `ws` package, subclassed to send the session cookie and an Origin like a
 * browser does), assertions that retry until a deadline, and pages inserted straight in the
 * tables.
 */
import { HocuspocusProvider, HocuspocusProviderWebsocket } from "@hocuspocus/provider";
import { DOCUMENT_FIELD, type LiveStatelessMessage, parseLiveStateless } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { WebSocket } from "ws";
import * as Y from "yjs";
import { createTestApp, ORIGIN, type TestApp } from "../../test/harness.ts";
import { SESSION_COOKIE } from "../auth/sessions.ts";
import { documentUpdates, pageProjects, pages } from "../db/schema.ts";
import { syncStatusOf } from "./messages.ts";

export type LiveServer = TestApp & { url: string };

/** The app listening on a free port, with short store debounces. */
export async function startLiveServer(env: Record<string, string> = {}): Promise<LiveServer> {
  const t = await createTestApp(env);
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  const { configuration } = t.app.ctx.live.hocuspocus;
  configuration.debounce = 100;
  configuration.maxDebounce = 500;
  return { ...t, url: `ws://127.0.0.1:${address.port}/live` };
}

/** Retry `check` until it stops throwing, or throw its last error after `timeoutMs`. */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

/** A WebSocket class that sends `headers` on the upgrade, as a browser sends its cookie and Origin. */
export function webSocketWith(headers: Record<string, string>) {
  return class extends WebSocket {
    constructor(address: string | URL, protocols?: string | string[]) {
      super(address, protocols, { headers });
    }
  };
}

export type Tab = {
  socket: HocuspocusProviderWebsocket;
  /** Codes of the WebSocket's closes (4401 when its session ended). */
  socketCloses: number[];
  /** Open a document on this tab's socket. */
  open: (name: string, doc?: Y.Doc) => OpenDocument;
  destroy: () => void;
};

export type OpenDocument = {
  provider: HocuspocusProvider;
  doc: Y.Doc;
  /** The reason of a refused authentication, once refused. */
  refused: string | null;
  /** "read-write" or "readonly" once accepted. */
  scope: string | null;
  /** Reasons of the server's closes of this document. */
  closes: string[];
  /** Stateless messages received, parsed. */
  messages: LiveStatelessMessage[];
  /** How many of this client's updates the server answered "not applied" (a read-only connection). */
  refusedUpdates: number;
  fragment: () => Y.XmlFragment;
  /** Authenticate again on the open socket (what the app does after `access-changed`). */
  reauthenticate: () => void;
};

/** One browser tab: one WebSocket (HocuspocusProviderWebsocket), documents opened on it. */
export function openTab(
  url: string,
  user: { token: string } | null,
  options: { origin?: string | null; maxAttempts?: number } = {},
): Tab {
  const headers: Record<string, string> = {};
  const origin = options.origin === undefined ? ORIGIN : options.origin;
  if (origin) headers.origin = origin;
  if (user) headers.cookie = `${SESSION_COOKIE}=${user.token}`;
  const socket = new HocuspocusProviderWebsocket({
    url,
    WebSocketPolyfill: webSocketWith(headers),
    delay: 50,
    minDelay: 50,
    maxDelay: 500,
    maxAttempts: options.maxAttempts ?? 0,
  });
  const providers: HocuspocusProvider[] = [];
  const socketCloses: number[] = [];
  socket.on("close", ({ event }: { event: { code: number } }) => {
    socketCloses.push(event.code);
  });
  return {
    socket,
    socketCloses,
    open(name, doc = new Y.Doc()) {
      const provider = new HocuspocusProvider({ name, document: doc, websocketProvider: socket });
      const opened: OpenDocument = {
        provider,
        doc,
        refused: null,
        scope: null,
        closes: [],
        messages: [],
        refusedUpdates: 0,
        fragment: () => doc.getXmlFragment(DOCUMENT_FIELD),
        reauthenticate: () => {
          opened.scope = null;
          void provider.onOpen(new Event("open"));
        },
      };
      provider.on("authenticationFailed", ({ reason }: { reason: string }) => {
        opened.refused = reason;
      });
      provider.on("authenticated", ({ scope }: { scope: string }) => {
        opened.scope = scope;
      });
      provider.on("close", ({ event }: { event: { reason: string } }) => {
        opened.closes.push(event.reason);
      });
      provider.on("stateless", ({ payload }: { payload: string }) => {
        const message = parseLiveStateless(payload);
        if (message) opened.messages.push(message);
      });
      countRefusedUpdates(provider, () => {
        opened.refusedUpdates += 1;
      });
      provider.attach();
      providers.push(provider);
      return opened;
    },
    destroy() {
      for (const provider of providers) provider.destroy();
      // A socket that is reconnecting (a test closed it, e.g. a revocation) is still CONNECTING:
      // destroying it aborts the handshake, and ws reports that as an "error" event on the next
      // tick, after the provider has removed its listeners — an uncaught exception that fails the
      // run. Nothing is lost by ignoring it: the socket is being thrown away.
      const raw = (socket as unknown as { webSocket: { addEventListener?: (t: string, f: () => void) => void } | null })
        .webSocket;
      raw?.addEventListener?.("error", () => undefined);
      socket.destroy();
    },
  };
}

/** Call `onRefused` for every SyncStatus "not applied" the server sends this provider. */
function countRefusedUpdates(provider: HocuspocusProvider, onRefused: () => void): void {
  provider.on("message", ({ event }: { event: MessageEvent }) => {
    const data = event.data;
    const frame = data instanceof Uint8Array ? data : new Uint8Array(data as ArrayBuffer);
    if (syncStatusOf(frame)?.applied === false) onRefused();
  });
}

/** A page editor of the reference's web client: its own socket to /live/collaboration. */
export type ReferenceEditor = {
  provider: HocuspocusProvider;
  doc: Y.Doc;
  refused: string | null;
  scope: string | null;
  /** Codes and reasons of the socket's closes. */
  socketCloses: { code: number; reason: string }[];
  /** Stateless payloads received, as sent (the reference's notices are plain strings). */
  notices: string[];
  refusedUpdates: number;
  destroy: () => void;
};

export type ReferenceQuery = { documentType?: string | null; projectId?: string | null; workspaceSlug?: string | null };

/**
 * Open a page the way the reference's web client does (its use-yjs-setup): a provider with its
 * own socket to `/live/collaboration?documentType=project_page&projectId=…&workspaceSlug=…`,
 * the bare page id as the document name and its user as a JSON token.
 */
export function openReferenceEditor(
  liveUrl: string,
  user: { token: string; id: string } | null,
  pageId: string,
  query: ReferenceQuery,
  options: { origin?: string | null; tokenUserId?: string } = {},
): ReferenceEditor {
  const headers: Record<string, string> = {};
  const origin = options.origin === undefined ? ORIGIN : options.origin;
  if (origin) headers.origin = origin;
  if (user) headers.cookie = `${SESSION_COOKIE}=${user.token}`;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ documentType: "project_page", ...query })) {
    if (value !== null && value !== undefined) params.set(key, value);
  }
  const doc = new Y.Doc();
  const provider = new HocuspocusProvider({
    url: `${liveUrl}/collaboration?${params}`,
    name: pageId,
    document: doc,
    token: JSON.stringify({ id: options.tokenUserId ?? user?.id ?? "", name: "Someone", color: "#000000" }),
    WebSocketPolyfill: webSocketWith(headers),
    delay: 50,
    minDelay: 50,
    maxDelay: 500,
    maxAttempts: 0,
  } as ConstructorParameters<typeof HocuspocusProvider>[0]);
  const opened: ReferenceEditor = {
    provider,
    doc,
    refused: null,
    scope: null,
    socketCloses: [],
    notices: [],
    refusedUpdates: 0,
    destroy: () => {
      const socket = provider.configuration.websocketProvider;
      const raw = (socket as unknown as { webSocket: { addEventListener?: (t: string, f: () => void) => void } | null })
        .webSocket;
      raw?.addEventListener?.("error", () => undefined);
      provider.destroy();
      socket.destroy();
    },
  };
  provider.on("authenticationFailed", ({ reason }: { reason: string }) => {
    opened.refused = reason;
  });
  provider.on("authenticated", ({ scope }: { scope: string }) => {
    opened.scope = scope;
  });
  provider.configuration.websocketProvider.on("close", ({ event }: { event: { code: number; reason: string } }) => {
    opened.socketCloses.push({ code: event.code, reason: event.reason });
  });
  provider.on("stateless", ({ payload }: { payload: string }) => {
    opened.notices.push(payload);
  });
  countRefusedUpdates(provider, () => {
    opened.refusedUpdates += 1;
  });
  return opened;
}

/** Wait until a document is synced with nothing left to send. */
export async function synced(opened: { provider: HocuspocusProvider }, timeoutMs = 20_000): Promise<void> {
  await eventually(() => {
    if (!opened.provider.isSynced || opened.provider.hasUnsyncedChanges)
      throw new Error(`${opened.provider.configuration.name} not synced`);
  }, timeoutMs);
}

/**
 * The server's document `name` once it is loaded (a document is unloaded when its last
 * connection closes and loaded again for the next: on a busy machine that load may still run).
 */
export async function loadedDocument(s: LiveServer, name: string) {
  return eventually(() => {
    const loaded = s.app.ctx.live.hocuspocus.documents.get(name);
    if (!loaded) throw new Error(`${name} is not loaded`);
    return loaded;
  });
}

/** Append `text` as a new paragraph at the end of the document body. */
export function appendParagraph(doc: Y.Doc, text: string): void {
  doc.transact(() => {
    const paragraph = new Y.XmlElement("paragraph");
    paragraph.insert(0, [new Y.XmlText(text)]);
    const fragment = doc.getXmlFragment(DOCUMENT_FIELD);
    fragment.insert(fragment.length, [paragraph]);
  });
}

/** The text of the body, paragraphs joined by newlines. */
export function bodyText(doc: Y.Doc): string {
  return doc
    .getXmlFragment(DOCUMENT_FIELD)
    .toArray()
    .map((node) =>
      node instanceof Y.XmlElement
        ? node
            .toArray()
            .map((child) => (child instanceof Y.XmlText ? child.toString() : ""))
            .join("")
        : "",
    )
    .join("\n");
}

/** Log rows of a document. */
export async function logRows(t: TestApp, name: string) {
  return t.db.select().from(documentUpdates).where(eq(documentUpdates.documentName, name));
}

/** A page in `projectIds`, inserted straight in the tables. */
export async function insertPage(
  t: TestApp,
  values: { workspaceId: string; ownerId: string; projectIds: string[] } & Partial<typeof pages.$inferInsert>,
) {
  const { workspaceId, ownerId, projectIds, ...rest } = values;
  const [page] = await t.db
    .insert(pages)
    .values({ workspaceId, ownedById: ownerId, name: "Page", createdById: ownerId, ...rest })
    .returning();
  if (!page) throw new Error("page insert failed");
  if (projectIds.length) {
    await t.db
      .insert(pageProjects)
      .values(projectIds.map((projectId) => ({ pageId: page.id, projectId, workspaceId })));
  }
  return page;
}
