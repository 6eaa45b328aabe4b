/**
 * The rich-text editor, loaded on demand: tiptap, ProseMirror and the highlighter are heavy, so
 * they live in their own chunk that loads the first time an editor is shown. Importing this file
 * costs nothing; the placeholder keeps the layout steady while the chunk arrives.
 */
import { Suspense } from "react";
import { EditorLoadBoundary, reloadableLazy } from "./load-boundary";
import { EditorPlaceholder } from "./placeholder";
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

const lazyEditor = reloadableLazy(async () => ({ default: (await import("./rich-text-editor")).RichTextEditorImpl }));
const lazyLiveEditor = reloadableLazy(async () => ({ default: (await import("./live-editor")).LiveEditorImpl }));

/** Start loading the editor chunk early (e.g. when a work item opens). */
export function preloadRichTextEditor(): void {
  void import("./rich-text-editor");
}

export function RichTextEditor(props: RichTextEditorProps) {
  return <EditorLoadBoundary onRetry={lazyEditor.reset}>{() => <LoadedEditor {...props} />}</EditorLoadBoundary>;
}

function LoadedEditor(props: RichTextEditorProps) {
  const LazyEditor = lazyEditor.current();
  return (
    <Suspense
      fallback={
        <EditorPlaceholder
          variant={props.variant}
          editable={props.editable ?? true}
          withImage={Boolean(props.onUploadImage)}
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
  return (
    <EditorLoadBoundary onRetry={lazyLiveEditor.reset} className={props.className}>
      {() => <LoadedLiveEditor {...props} />}
    </EditorLoadBoundary>
  );
}

function LoadedLiveEditor(props: LiveEditorProps) {
  const LazyLiveEditor = lazyLiveEditor.current();
  return (
    <Suspense
      fallback={
        <EditorPlaceholder
          editable={props.editable}
          withImage={Boolean(props.onUploadImage)}
          html={props.previewHtml}
          className={props.className}
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
