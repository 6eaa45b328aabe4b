/**
 * A page's title as its live document holds it (PAGE_TITLE_FIELD: one heading, as the reference's
 * editor writes it), read the way the server reads it (live-server/src/live/schema.ts titleOf).
 */
import { PAGE_NAME_MAX } from "@tideline/shared";
import type * as Y from "yjs";

/** Plain text of a title fragment as a page name: one line, trimmed (the server's titleOf). */
export function titleText(fragment: Y.XmlFragment | Y.XmlElement): string {
  const parts: string[] = [];
  // Told apart by shape: yjs is only a type import in this chunk.
  const walk = (node: Y.XmlFragment | Y.XmlElement) => {
    for (const child of node.toArray()) {
      if ("toDelta" in child) {
        for (const op of (child as Y.XmlText).toDelta() as { insert: unknown }[]) {
          if (typeof op.insert === "string") parts.push(op.insert);
        }
      } else if ("nodeName" in child) {
        parts.push(" ");
        walk(child as Y.XmlElement);
        parts.push(" ");
      }
    }
  };
  walk(fragment);
  return parts.join("").replace(/\s+/g, " ").trim().slice(0, PAGE_NAME_MAX).trim();
}
