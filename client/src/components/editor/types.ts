/**
 * The rich-text editor's public shape, importable without loading the editor itself (the
 * editor and tiptap live in their own chunk; see index.tsx).
 */
import type { AnyExtension } from "@tiptap/core";
import type { Ref } from "react";

/** What a parent can do with a mounted editor. */
export type RichTextEditorHandle = {
  focus: () => void;
  clear: () => void;
  getHTML: () => string;
  setContent: (html: string) => void;
  isEmpty: () => boolean;
};

/**
 * Real-time editing (the live layer): the caller builds the Yjs extensions — e.g.
 * `Collaboration.configure({ document: ydoc, field: "default" })` and CollaborationCaret bound
 * to its provider — so yjs stays out of the editor's chunk until the live layer loads it. With
 * collaboration the Y.Doc is the document: `value` is ignored and undo/redo come from Yjs
 * (the editor's own history is switched off).
 */
export type CollaborationOptions = {
  extensions: AnyExtension[];
};

/** A person "@" offers (a workspace or project member). */
export type Mentionable = { id: string; display_name: string; avatar_url?: string | null };

export type RichTextEditorProps = {
  /** Initial HTML; later changes are applied only while the editor isn't focused. */
  value?: string;
  onChange?: (html: string) => void;
  onBlur?: () => void;
  onFocus?: () => void;
  placeholder?: string;
  /** The accessible name of the editing area (role textbox). */
  ariaLabel: string;
  editable?: boolean;
  /** "full": description (toolbar with blocks, tables, bubble menu); "compact": comment box. */
  variant?: "full" | "compact";
  /** Ctrl/Cmd+Enter. */
  onSubmit?: () => void;
  /** Upload a pasted, dropped or chosen image; resolves to its address. Without it, no images. */
  onUploadImage?: (file: File) => Promise<string>;
  /** Extra tiptap extensions (appended after the built-in ones). */
  extensions?: AnyExtension[];
  collaboration?: CollaborationOptions;
  handleRef?: Ref<RichTextEditorHandle>;
  autoFocus?: boolean;
  /** Content shown at the right of the compact toolbar (e.g. the Comment button). */
  footer?: React.ReactNode;
  className?: string;
  /**
   * People "@" offers; given (even empty), typing "@" opens the mention popup. Mentions already
   * in the content show either way.
   */
  mentionables?: readonly Mentionable[];
  /** "/" at the start of an empty paragraph opens the block menu. */
  slashCommands?: boolean;
  /** Show the number of characters under the editor. */
  showCharacterCount?: boolean;
};

/**
 * The state of a live document, for the badge next to the editor and the caller's own use.
 * `synced`: the server has acknowledged every local change. `edited`: a change was made here
 * since the document opened (opening sends the copy kept on this device and asks the server for
 * its own, which leaves `synced` false for a moment without anyone having typed). `readOnly`: the
 * server opened the document read-only. `error`: why the document was refused or closed, for the person.
 */
export type LiveDocumentStatus = {
  connection: "connecting" | "connected" | "offline";
  synced: boolean;
  edited: boolean;
  readOnly: boolean;
  error?: string;
};

/** The real-time editor of a live document (`page.{id}`, `issue.{id}`). */
export type LiveEditorProps = {
  /** `page.{id}` or `issue.{id}` (shared/src/live/protocol.ts). */
  documentName: string;
  /** Whether this person may edit; the server can still open the document read-only. */
  editable: boolean;
  ariaLabel: string;
  placeholder?: string;
  onUploadImage?: (file: File) => Promise<string>;
  /** People "@" offers. */
  mentionables?: readonly Mentionable[];
  onStatusChange?: (status: LiveDocumentStatus) => void;
  /**
   * A page's title as the document holds it (PAGE_TITLE_FIELD, kept by the server in step with
   * the page's name): called with its text when it changes, so the screen follows a rename made
   * in another editor (the reference's) or over REST without waiting for the event round trip.
   */
  onTitleChange?: (title: string) => void;
  showCharacterCount?: boolean;
  className?: string;
  /**
   * The stored HTML (server-sanitised), shown read-only while the editor's code and the live
   * document load, so the text is there at once and nothing below it moves when the editor comes.
   */
  previewHtml?: string;
};
