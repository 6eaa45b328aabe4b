/**
 * A page body as Yjs state and as HTML, for the REST API (clients without a WebSocket,
 * versions, duplicates). The schema, the extension list and building a state from HTML come
 * from the live layer (live/schema.ts), so REST and live edits read and render the same way;
 * this file adds what a REST write needs on top: refusing an update that is incomplete or
 * brings content the editor can't show, and turning a body into a diff of another.
 */
import { DOCUMENT_FIELD } from "@tideline/shared";
import type { Node as PmNode } from "@tiptap/pm/model";
import * as Y from "yjs";
import { htmlToPlainText, sanitizeRichText } from "../../content/sanitize.ts";
import { editorKit, nodeFromHtml } from "../../live/schema.ts";

export { stateFromHtml } from "../../live/schema.ts";

export type PageContent = { html: string; stripped: string };

/** Thrown when a Yjs state can't be read as a page body (broken or incomplete update, unknown nodes). */
export class ContentError extends Error {}

/** A Y.Doc holding `states` applied in order; throws ContentError unless they form a complete document. */
export function docFromState(...states: Uint8Array[]): Y.Doc {
  const doc = new Y.Doc();
  try {
    for (const state of states) Y.applyUpdate(doc, state);
  } catch (error) {
    throw new ContentError(`Not a Yjs update: ${(error as Error).message}`);
  }
  // Structs waiting for parents we don't have mean the update depends on state we never saw.
  if (doc.store.pendingStructs || doc.store.pendingDs) {
    throw new ContentError("The update depends on changes the server does not have.");
  }
  return doc;
}

/**
 * The ProseMirror body of `doc`, read from a copy: y-tiptap deletes the Yjs elements it can't
 * turn into nodes, and reading must never change the document. `fits` is false when something
 * had to be dropped (a node or mark the page editor doesn't know).
 */
function readBody(doc: Y.Doc): { node: PmNode; fits: boolean } {
  const copy = new Y.Doc();
  Y.applyUpdate(copy, Y.encodeStateAsUpdate(doc));
  let fits = true;
  copy.on("update", () => {
    fits = false;
  });
  try {
    const { yXmlFragmentToProseMirrorRootNode, schema } = editorKit();
    const node = yXmlFragmentToProseMirrorRootNode(copy.getXmlFragment(DOCUMENT_FIELD), schema);
    node.check();
    return { node, fits };
  } catch (error) {
    throw new ContentError(`The document does not fit the page editor: ${(error as Error).message}`);
  } finally {
    copy.destroy();
  }
}

/** HTML and plain text of a document's body, and whether all of it fits the editor's schema. */
export function contentOfDoc(doc: Y.Doc): PageContent & { fits: boolean } {
  const { node, fits } = readBody(doc);
  const { generateHTML, extensions } = editorKit();
  const html = sanitizeRichText(generateHTML(node.toJSON(), extensions));
  return { html, stripped: htmlToPlainText(html), fits };
}

/**
 * The Yjs update that turns `doc` into the body `target` (HTML, or another state such as a
 * version). It is a diff of the existing document, not a replacement: applied next to live
 * copies of the same document it converges instead of duplicating the text.
 */
export function replacementUpdate(doc: Y.Doc, target: { html: string } | { state: Uint8Array }): Uint8Array {
  const node = "html" in target ? nodeFromHtml(target.html) : readBody(docFromState(target.state)).node;
  const before = Y.encodeStateVector(doc);
  editorKit().updateYFragment(doc, doc.getXmlFragment(DOCUMENT_FIELD), node, {
    mapping: new Map(),
    isOMark: new Map(),
  });
  return Y.encodeStateAsUpdate(doc, before);
}
