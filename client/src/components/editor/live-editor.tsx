/**
 * The live editor: the rich-text editor bound to a live document (`page.{id}`, `issue.{id}`)
 * of the live layer (lib/live.ts). Loaded lazily through index.tsx with the editor's chunk.
 *
 * - The Y.Doc from `openDocument` is the document (Collaboration on DOCUMENT_FIELD, the field
 *   the server reads and writes); other people's carets and selections come through the
 *   provider's awareness, labelled with their name in a colour derived from their id.
 * - A copy is kept in IndexedDB (y-indexeddb, one database per document and user), so the
 *   document opens and can be edited offline; Yjs merges the offline changes on reconnection.
 * - When the server replaces the document (`document-reset`: its content was rewritten over
 *   REST while this copy was away) `openDocument` opens it afresh: the editor is rebuilt on the
 *   new Y.Doc and the IndexedDB copy, which belongs to the replaced generation, is deleted.
 * - Refusals and closes (LIVE_CLOSE) become the status' `error`, in words for the person; the
 *   ones that stop saving for good also stop editing.
 */
import type { HocuspocusProvider } from "@hocuspocus/provider";
import {
  DOCUMENT_FIELD,
  LIVE_CLOSE,
  type LiveCloseName,
  liveCloseFor,
  PAGE_TITLE_FIELD,
  PRESENCE_COLOURS,
  presenceColour,
  presenceName,
} from "@tideline/shared";
import { Collaboration } from "@tiptap/extension-collaboration";
import { CollaborationCaret } from "@tiptap/extension-collaboration-caret";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { subscribe, useSnapshot } from "valtio";
import { clearDocument, IndexeddbPersistence } from "y-indexeddb";
import type * as Y from "yjs";
import { connectionState, openDocument } from "../../lib/live";
import { session } from "../../stores/session";
import { titleText } from "./page-title";
import { EditorPlaceholder } from "./placeholder";
import { RichTextEditorImpl } from "./rich-text-editor";
import type { CollaborationOptions, LiveDocumentStatus, LiveEditorProps } from "./types";

type Live = { provider: HocuspocusProvider; doc: Y.Doc };

/**
 * What the server said, by LIVE_CLOSE name (translated when shown). Not problems: a reset and
 * an access change (lib/live.ts reopens or re-authenticates), an oversized caret state (the app
 * never sends one).
 */
type Problem = Exclude<LiveCloseName, "documentReset" | "accessChanged" | "awarenessTooLarge">;
const NOT_PROBLEMS: ReadonlySet<LiveCloseName> = new Set(["documentReset", "accessChanged", "awarenessTooLarge"]);

type RawStatus = Omit<LiveDocumentStatus, "error"> & { problem: Problem | null };

/** Problems after which changes can't be saved until the document is opened again. */
const STOPS_EDITING: ReadonlySet<Problem> = new Set([
  "unauthorized",
  "forbidden",
  "documentTooLarge",
  "tooManyClients",
]);

const PROBLEM_BY_REASON = new Map<string, Problem>(
  (Object.entries(LIVE_CLOSE) as [LiveCloseName, (typeof LIVE_CLOSE)[LiveCloseName]][])
    .filter((entry): entry is [Problem, (typeof LIVE_CLOSE)[Problem]] => !NOT_PROBLEMS.has(entry[0]))
    .map(([name, event]) => [event.reason, name]),
);

/** Our problem for a close or refusal (by reason, else by code), or null when it is not one of ours. */
function problemOf(reason: string | undefined, code?: number): Problem | null {
  const event = (reason ? liveCloseFor(reason) : null) ?? (code !== undefined ? liveCloseFor(code) : null);
  return event ? (PROBLEM_BY_REASON.get(event.reason) ?? null) : null;
}

/**
 * A stable caret colour for a user id. The server stamps the same name and colour
 * (shared/src/live/presence.ts) on every caret it relays, so everyone sees the same label.
 */
export const caretColour = presenceColour;

/** The IndexedDB database of one person's copy of one document. */
export function localCopyName(documentName: string, userId: string): string {
  return `tideline:${documentName}:${userId}`;
}

function statusOf(provider: HocuspocusProvider, problem: Problem | null, edited: boolean): RawStatus {
  // The browser knows it is offline at once; the socket may take its ping timeout to notice.
  const socket = navigator.onLine ? connectionState.status : "offline";
  return {
    connection:
      socket === "offline" ? "offline" : socket === "connected" && provider.isSynced ? "connected" : "connecting",
    synced: !provider.hasUnsyncedChanges,
    edited,
    readOnly: provider.authorizedScope === "readonly",
    problem,
  };
}

const sameStatus = (a: RawStatus, b: RawStatus) =>
  a.connection === b.connection &&
  a.synced === b.synced &&
  a.edited === b.edited &&
  a.readOnly === b.readOnly &&
  a.problem === b.problem;

export function LiveEditorImpl({
  documentName,
  editable,
  ariaLabel,
  placeholder,
  onUploadImage,
  mentionables,
  onStatusChange,
  onTitleChange,
  showCharacterCount,
  className,
  previewHtml,
}: LiveEditorProps) {
  const { t } = useTranslation();
  const user = useSnapshot(session).user;
  const userId = user?.id ?? null;
  // Carets are labelled with the person's full name (what others recognise), else their handle.
  const userName = user ? presenceName(user) : "";
  const [live, setLive] = useState<Live | null>(null);
  const [ready, setReady] = useState(false);
  const [raw, setRaw] = useState<RawStatus>({
    connection: "connecting",
    synced: true,
    edited: false,
    readOnly: false,
    problem: null,
  });
  const tRef = useRef(t);
  tRef.current = t;

  useEffect(() => {
    const opened = openDocument(documentName);
    const localName = userId ? localCopyName(documentName, userId) : null;
    let disposed = false;
    let local: IndexeddbPersistence | null = null;
    let problem: Problem | null = null;
    // A change made here since the document opened: an update of the Y.Doc that neither the
    // server (the provider) nor the copy on this device (the persistence) applied.
    let edited = false;
    let unwatch = () => {};

    const attachLocal = (doc: Y.Doc) => {
      if (!localName) return;
      const persistence = new IndexeddbPersistence(localName, doc);
      local = persistence;
      void persistence.whenSynced.then(() => {
        if (!disposed && local === persistence) setReady(true);
      });
    };

    const watch = (provider: HocuspocusProvider) => {
      const update = () => {
        if (disposed || provider !== opened.provider) return;
        const next = statusOf(provider, problem, edited);
        setRaw((prev) => (sameStatus(prev, next) ? prev : next));
      };
      const onDocUpdate = (_update: Uint8Array, origin: unknown) => {
        if (edited || origin === provider || (local && origin === local)) return;
        edited = true;
        update();
      };
      const onAuthenticated = () => {
        // Let in again (reconnected, another try): whatever stopped it before is over.
        problem = null;
        update();
      };
      const onRefused = ({ reason }: { reason: string }) => {
        problem = problemOf(reason) ?? "forbidden";
        update();
      };
      const onClose = ({ event }: { event: { code?: number; reason?: string } }) => {
        const found = problemOf(event.reason, event.code);
        // document-reset is openDocument's to handle; other closes (a restart) just reconnect.
        if (found) problem = found;
        update();
      };
      const onSynced = () => {
        if (problem === "rateLimited") problem = null;
        setReady(true);
        update();
      };
      provider.on("authenticated", onAuthenticated);
      provider.on("authenticationFailed", onRefused);
      provider.on("close", onClose);
      provider.on("synced", onSynced);
      provider.on("unsyncedChanges", update);
      provider.on("status", update);
      provider.document.on("update", onDocUpdate);
      const unsubscribe = subscribe(connectionState, update);
      window.addEventListener("online", update);
      window.addEventListener("offline", update);
      update();
      return () => {
        window.removeEventListener("online", update);
        window.removeEventListener("offline", update);
        provider.off("authenticated", onAuthenticated);
        provider.off("authenticationFailed", onRefused);
        provider.off("close", onClose);
        provider.off("synced", onSynced);
        provider.off("unsyncedChanges", update);
        provider.off("status", update);
        provider.document.off("update", onDocUpdate);
        unsubscribe();
      };
    };

    attachLocal(opened.doc);
    unwatch = watch(opened.provider);
    setLive({ provider: opened.provider, doc: opened.doc });

    const offReset = opened.onReset((next) => {
      unwatch();
      problem = null;
      const stale = local;
      local = null;
      // The copy on this device belongs to the replaced generation: delete it before the new
      // document gets its own (opening the database again before the deletion would revive it).
      void (async () => {
        try {
          await stale?.destroy();
          if (localName) await clearDocument(localName);
        } finally {
          if (!disposed && opened.doc === next.doc) attachLocal(next.doc);
        }
      })();
      setReady(false);
      unwatch = watch(next.provider);
      setLive({ provider: next.provider, doc: next.doc });
      toast.info(tRef.current("liveEditor.reset"));
    });

    return () => {
      disposed = true;
      offReset();
      unwatch();
      void local?.destroy();
      opened.close();
      setLive(null);
      setReady(false);
    };
  }, [documentName, userId]);

  // The page title in the document (see onTitleChange): followed while the document is open.
  const titleRef = useRef(onTitleChange);
  titleRef.current = onTitleChange;
  const followsTitle = Boolean(onTitleChange);
  useEffect(() => {
    if (!live || !followsTitle) return;
    const fragment = live.doc.getXmlFragment(PAGE_TITLE_FIELD);
    let last: string | null = null;
    const report = () => {
      if (fragment.length === 0) return;
      const title = titleText(fragment);
      if (title === last) return;
      last = title;
      titleRef.current?.(title);
    };
    fragment.observeDeep(report);
    return () => fragment.unobserveDeep(report);
  }, [live, followsTitle]);

  const collaboration = useMemo<CollaborationOptions | undefined>(() => {
    if (!live) return undefined;
    return {
      extensions: [
        Collaboration.configure({ document: live.doc, field: DOCUMENT_FIELD }),
        CollaborationCaret.configure({
          provider: live.provider,
          user: { name: userName || "?", color: userId ? caretColour(userId) : PRESENCE_COLOURS[0] },
        }),
      ],
    };
  }, [live, userName, userId]);

  const error = raw.problem ? t(`liveEditor.error.${raw.problem}`) : undefined;
  const status = useMemo<LiveDocumentStatus>(
    () => ({
      connection: raw.connection,
      synced: raw.synced,
      edited: raw.edited,
      // Read-only when the server says so or the screen does (a page locked or archived while open).
      readOnly: raw.readOnly || !editable,
      ...(error ? { error } : {}),
    }),
    [raw, error, editable],
  );
  const statusRef = useRef(onStatusChange);
  statusRef.current = onStatusChange;
  useEffect(() => {
    statusRef.current?.(status);
  }, [status]);

  const canEdit = editable && !raw.readOnly && !(raw.problem && STOPS_EDITING.has(raw.problem));

  if (!live || !collaboration) {
    return (
      <EditorPlaceholder
        editable={editable}
        withImage={Boolean(onUploadImage)}
        html={previewHtml}
        className={className}
      />
    );
  }

  return (
    <div className={`live-editor ${ready ? "" : "live-editor-pending"} ${className ?? ""}`}>
      {error ? (
        <p className="live-editor-error" role="alert">
          {error}
        </p>
      ) : null}
      <RichTextEditorImpl
        // A new Y.Doc (after a reset) is a new editor.
        key={live.doc.guid}
        collaboration={collaboration}
        editable={canEdit}
        ariaLabel={ariaLabel}
        placeholder={placeholder}
        variant="full"
        onUploadImage={onUploadImage}
        mentionables={mentionables ?? []}
        slashCommands
        showCharacterCount={showCharacterCount}
      />
    </div>
  );
}
