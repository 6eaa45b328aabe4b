/** Reading a live document's text the way tiptap's Collaboration stores it. */
import { DOCUMENT_FIELD } from "@tideline/shared";
import * as Y from "yjs";

/** The document's text containers (one Y.XmlText per paragraph), in order. */
export function textsOf(doc: Y.Doc): Y.XmlText[] {
  const texts: Y.XmlText[] = [];
  const walk = (node: Y.XmlFragment | Y.XmlElement) => {
    for (const child of node.toArray()) {
      if (child instanceof Y.XmlText) texts.push(child);
      else if (child instanceof Y.XmlElement) walk(child);
    }
  };
  walk(doc.getXmlFragment(DOCUMENT_FIELD));
  return texts;
}

/** Plain text, one line per paragraph: what copies are compared on. */
export function plainText(doc: Y.Doc): string {
  return textsOf(doc)
    .map((t) => t.toString())
    .join("\n");
}
