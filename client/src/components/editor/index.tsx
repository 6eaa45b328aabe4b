/**
 * The rich-text editor, loaded on demand: tiptap, ProseMirror and the highlighter are heavy, so
 * they live in their own chunk that loads the first time an editor is shown. Importing this file
 * costs nothing; the placeholder keeps the layout steady while the chunk arrives.
 */
import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import type { LiveEditorProps, RichTextEditorProps } from "./types";
import "./editor.css";

export { LiveDocumentBadge } from "./live-badge";
export type {
  CollaborationOptions,
  LiveDocumentStatus,
  LiveEditorProps,
  Mentionable,
  RichTextEditorHandle,
  RichTextEditorProps,
} from "./types";

const LazyEditor = lazy(async () => ({ default: (await import("./rich-text-editor")).RichTextEditorImpl }));
const LazyLiveEditor = lazy(async () => ({ default: (await import("./live-editor")).LiveEditorImpl }));

/** Start loading the editor chunk early (e.g. when a work item opens). */
export function preloadRichTextEditor(): void {
  void import("./rich-text-editor");
}

export function RichTextEditor(props: RichTextEditorProps) {
  const { t } = useTranslation();
  return (
    <Suspense
      fallback={
        <div
          className={`rte rte-${props.variant ?? "full"} rte-loading`}
          role="status"
          aria-busy="true"
          aria-label={t("workItem.editor.loading")}
        />
      }
    >
      <LazyEditor {...props} />
    </Suspense>
  );
}

/**
 * The real-time editor of a live document (`page.{id}`, `issue.{id}`): several people at once
 * with their carets, offline editing kept on the device, "@" mentions, "/" commands. Put a
 * LiveDocumentBadge next to it, fed by `onStatusChange`.
 */
export function LiveEditor(props: LiveEditorProps) {
  const { t } = useTranslation();
  return (
    <Suspense
      fallback={
        <div
          className={`rte rte-full rte-loading ${props.className ?? ""}`}
          role="status"
          aria-busy="true"
          aria-label={t("workItem.editor.loading")}
        />
      }
    >
      <LazyLiveEditor {...props} />
    </Suspense>
  );
}

/** Start loading the live editor's chunk early. */
export function preloadLiveEditor(): void {
  void import("./live-editor");
}

/** Stored, server-sanitised rich text shown read-only (comments) without loading the editor. */
export function RichTextView({ html, className }: { html: string; className?: string }) {
  return (
    // The HTML was sanitised by the server's allow-list before it was stored.
    // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on the server (content/sanitize.ts)
    <div className={`rte-content rte-view ${className ?? ""}`} dangerouslySetInnerHTML={{ __html: html }} />
  );
}
