/**
 * The rich-text schema of live documents: the same tiptap extension set the client editor uses
 * (client/src/components/editor/rich-text-editor.tsx), so a Y.Doc built here from stored HTML
 * opens in the editor unchanged, and HTML derived here from a Y.Doc is what the editor shows.
 * Only the schema matters on the server (no editor view, no plugins), so CodeBlockLowlight gets
 * no highlighter and the mention node (shared/src/editor/mention.ts, the client's too) no
 * suggestion UI. When the client adds or configures a node or a mark, change it here too, or
 * content the server does not know is dropped from derived HTML.
 *
 * HTML goes through ProseMirror's DOMParser / DOMSerializer on one happy-dom window kept for the
 * process, which is what @tiptap/html's server generateJSON / generateHTML do with a new window
 * and a new schema per call: measured here, 1.7 ms instead of 8–10 ms per document, and the
 * store hook runs this for every stored document.
 */
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import {
  DOCUMENT_FIELD,
  DOCUMENT_GENERATION_KEY,
  DOCUMENT_META_MAP,
  PAGE_NAME_MAX,
  PAGE_TITLE_FIELD,
} from "@tideline/shared";
import type { DOMParser, DOMSerializer, Node as PmNode } from "@tiptap/pm/model";
import type { Window } from "happy-dom";
import * as Y from "yjs";
import { htmlToPlainText, sanitizeRichText } from "../content/sanitize.ts";
import type { EditorKit } from "./editor-kit.ts";

const require = createRequire(import.meta.url);
let kit: EditorKit | null = null;
/**
 * The tiptap extension set, its schema, parser and serializer (live/editor-kit.ts), loaded on
 * the first conversion: a start, and every request that converts nothing, skip its modules.
 */
export function editorKit(): EditorKit {
  kit ??= (require("./editor-kit.ts") as typeof import("./editor-kit.ts")).editorKit;
  return kit;
}

type SerializeOptions = NonNullable<Parameters<DOMSerializer["serializeFragment"]>[1]>;
type DomTarget = Parameters<DOMSerializer["serializeFragment"]>[2];
type DomNode = Parameters<DOMParser["parse"]>[0];

let sharedWindow: Window | null = null;
/**
 * A DOM for parsing and serialising only: no scripts, no network, no styles. happy-dom is loaded
 * on the first conversion (150 ms of module loading kept off every start).
 */
function dom(): Window {
  sharedWindow ??= new (require("happy-dom") as typeof import("happy-dom")).Window({
    settings: {
      disableJavaScriptEvaluation: true,
      disableJavaScriptFileLoading: true,
      disableCSSFileLoading: true,
      disableIframePageLoading: true,
      disableComputedStyleRendering: true,
    },
  });
  return sharedWindow;
}

/** The editor document for `html`, sanitised first (unknown nodes and marks are dropped by the parser). */
export function nodeFromHtml(html: string): PmNode {
  const parsed = new (dom().DOMParser)().parseFromString(
    `<!DOCTYPE html><html><body>${sanitizeRichText(html || "<p></p>")}</body></html>`,
    "text/html",
  );
  return editorKit().parser.parse(parsed.body as unknown as DomNode);
}

/** The HTML the editor would produce for `node` (not yet sanitised). */
export function nodeToHtml(node: PmNode): string {
  const { document } = dom();
  const wrap = document.createElement("div");
  editorKit().serializer.serializeFragment(
    node.content,
    { document: document as unknown as SerializeOptions["document"] },
    wrap as unknown as DomTarget,
  );
  return wrap.innerHTML;
}

/**
 * A new document state holding `html`, stamped with a fresh generation (see DOCUMENT_META_MAP):
 * every build makes new Yjs items, so copies built apart must never be merged. A page's state
 * gets its `title` too (PAGE_TITLE_FIELD), in the same build: a page document carries its name
 * from its first state on, so no client ever opens it untitled.
 */
export function stateFromHtml(html: string, title?: string): Uint8Array {
  const doc = new Y.Doc();
  try {
    const { prosemirrorJSONToYXmlFragment, schema } = editorKit();
    prosemirrorJSONToYXmlFragment(schema, nodeFromHtml(html).toJSON(), doc.getXmlFragment(DOCUMENT_FIELD));
    if (title !== undefined) setTitle(doc, title);
    doc.getMap(DOCUMENT_META_MAP).set(DOCUMENT_GENERATION_KEY, randomUUID());
    return Y.encodeStateAsUpdate(doc);
  } finally {
    doc.destroy();
  }
}

/**
 * Sanitised HTML and plain text of a document state. Read from a copy: y-tiptap deletes the Yjs
 * elements it can't turn into nodes, and reading must never change a live document.
 */
export function contentOfState(state: Uint8Array): { html: string; stripped: string } {
  const copy = new Y.Doc();
  try {
    Y.applyUpdate(copy, state);
    const { yXmlFragmentToProseMirrorRootNode, schema } = editorKit();
    const node = yXmlFragmentToProseMirrorRootNode(copy.getXmlFragment(DOCUMENT_FIELD), schema);
    const html = sanitizeRichText(nodeToHtml(node));
    return { html, stripped: htmlToPlainText(html) };
  } finally {
    copy.destroy();
  }
}

/** The generation stamped on a document, if any. */
export function generationOf(doc: Y.Doc): string | null {
  const value = doc.getMap(DOCUMENT_META_MAP).get(DOCUMENT_GENERATION_KEY);
  return typeof value === "string" ? value : null;
}

/**
 * Turn the body of a live document into `html` as a diff of what is there (y-tiptap's
 * updateYFragment), in one transaction with `origin`: connected editors keep their copy and
 * converge, instead of seeing the text twice.
 */
export function replaceWithHtml(doc: Y.Doc, html: string, origin: unknown): void {
  const node = nodeFromHtml(html);
  const { updateYFragment } = editorKit();
  doc.transact(() => {
    updateYFragment(doc, doc.getXmlFragment(DOCUMENT_FIELD), node, { mapping: new Map(), isOMark: new Map() });
  }, origin);
}

// ───────────────────────────── page titles ─────────────────────────────

/** Plain text of a Yjs XML node: its text runs in order, blocks separated by a space. */
function plainText(node: Y.XmlFragment | Y.XmlElement): string {
  const parts: string[] = [];
  for (const child of node.toArray()) {
    if (child instanceof Y.XmlText) {
      parts.push(
        (child.toDelta() as { insert: unknown }[]).map((d) => (typeof d.insert === "string" ? d.insert : "")).join(""),
      );
    } else if (child instanceof Y.XmlElement) parts.push(` ${plainText(child)} `);
  }
  return parts.join("");
}

/** A title as a page name: one line, trimmed, at most PAGE_NAME_MAX characters. */
export function asPageName(title: string): string {
  return title.replace(/\s+/g, " ").trim().slice(0, PAGE_NAME_MAX).trim();
}

/**
 * The page name a document's title field says (PAGE_TITLE_FIELD, the reference editor's title
 * heading), or null when the document has no title yet.
 */
export function titleOf(doc: Y.Doc): string | null {
  const fragment = doc.getXmlFragment(PAGE_TITLE_FIELD);
  if (fragment.length === 0) return null;
  return asPageName(plainText(fragment));
}

/**
 * Make the document's title say `name` (one level-1 heading, as the reference's editor writes
 * it) unless it already does. Returns whether the document changed.
 */
export function setTitle(doc: Y.Doc, name: string, origin: unknown = null): boolean {
  if (titleOf(doc) === asPageName(name)) return false;
  const fragment = doc.getXmlFragment(PAGE_TITLE_FIELD);
  const heading = new Y.XmlElement("heading");
  // y-prosemirror keeps node attributes as their JSON values.
  heading.setAttribute("level", 1 as unknown as string);
  if (name) heading.insert(0, [new Y.XmlText(name)]);
  doc.transact(() => {
    fragment.delete(0, fragment.length);
    fragment.insert(0, [heading]);
  }, origin);
  return true;
}

/** The update that makes the title of the document `state` say `name`, or null when it does. */
export function titleUpdateFor(state: Uint8Array, name: string): Uint8Array | null {
  const doc = new Y.Doc();
  try {
    Y.applyUpdate(doc, state);
    const before = Y.encodeStateVector(doc);
    return setTitle(doc, name) ? Y.encodeStateAsUpdate(doc, before) : null;
  } finally {
    doc.destroy();
  }
}
