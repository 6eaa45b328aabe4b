import { PAGE_TITLE_FIELD } from "@tideline/shared";
import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import { titleText } from "./page-title";

function titled(...texts: string[]): Y.XmlFragment {
  const doc = new Y.Doc();
  const fragment = doc.getXmlFragment(PAGE_TITLE_FIELD);
  fragment.insert(
    0,
    texts.map((text) => {
      const heading = new Y.XmlElement("heading");
      heading.insert(0, [new Y.XmlText(text)]);
      return heading;
    }),
  );
  return fragment;
}

describe("titleText", () => {
  it("reads the heading's text as a page name: one line, trimmed", () => {
    expect(titleText(titled("Roadmap 2027"))).toBe("Roadmap 2027");
    expect(titleText(titled("  Launch   checklist "))).toBe("Launch checklist");
    expect(titleText(titled("Two", "blocks"))).toBe("Two blocks");
    expect(titleText(titled(""))).toBe("");
  });

  it("ignores formatting and caps the length", () => {
    const fragment = titled("");
    const text = (fragment.get(0) as Y.XmlElement).get(0) as Y.XmlText;
    text.insert(0, "bold", { bold: true });
    text.insert(4, " plain");
    expect(titleText(fragment)).toBe("bold plain");
    expect(titleText(titled("x".repeat(400)))).toHaveLength(255);
  });
});
