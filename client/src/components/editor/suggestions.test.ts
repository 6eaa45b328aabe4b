/** The filtering behind "@" and "/" and the caret colour (pure parts of the live editor). */
import { describe, expect, it } from "vitest";
import { caretColour, localCopyName } from "./live-editor";
import { filterMentionables } from "./mentions";
import { filterSlashCommands, SLASH_COMMANDS } from "./slash-commands";

const people = [
  { id: "1", display_name: "bob" },
  { id: "2", display_name: "Anna Bell" },
  { id: "3", display_name: "annie" },
  { id: "4", display_name: "Zoe Abbott" },
];

describe("filterMentionables", () => {
  it("offers everyone (up to a limit) for an empty query", () => {
    expect(filterMentionables(people, "").map((p) => p.id)).toEqual(["1", "2", "3", "4"]);
  });

  it("ranks names starting with the query, then a word, then anywhere; case-insensitive", () => {
    expect(filterMentionables(people, "b").map((p) => p.id)).toEqual(["1", "2", "4"]);
    expect(filterMentionables(people, "ANN").map((p) => p.id)).toEqual(["2", "3"]);
    expect(filterMentionables(people, "bot").map((p) => p.id)).toEqual(["4"]);
    expect(filterMentionables(people, "xyz")).toEqual([]);
  });
});

describe("filterSlashCommands", () => {
  const english: Record<string, string> = {
    "liveEditor.slash.text": "Text",
    "liveEditor.slash.heading1": "Heading 1",
    "liveEditor.slash.heading2": "Heading 2",
    "liveEditor.slash.heading3": "Heading 3",
    "liveEditor.slash.bulletList": "Bulleted list",
    "liveEditor.slash.orderedList": "Numbered list",
    "liveEditor.slash.taskList": "To-do list",
    "liveEditor.slash.quote": "Quote",
    "liveEditor.slash.codeBlock": "Code block",
    "liveEditor.slash.table": "Table",
    "liveEditor.slash.divider": "Divider",
  };
  const t = (key: string) => english[key] ?? key;
  const ids = (query: string) => filterSlashCommands(SLASH_COMMANDS, query, t).map((c) => c.id);

  it("offers every block for a bare slash, in menu order", () => {
    expect(ids("")).toEqual([
      "text",
      "heading1",
      "heading2",
      "heading3",
      "bulletList",
      "orderedList",
      "taskList",
      "quote",
      "codeBlock",
      "table",
      "divider",
    ]);
  });

  it("finds blocks by name, word and keyword", () => {
    expect(ids("head")).toEqual(["heading1", "heading2", "heading3"]);
    expect(ids("h2")).toEqual(["heading2"]);
    expect(ids("todo")).toEqual(["taskList"]);
    expect(ids("list")).toEqual(["bulletList", "orderedList", "taskList"]);
    expect(ids("hr")).toEqual(["divider"]);
    expect(ids("nothing")).toEqual([]);
  });
});

describe("live editor helpers", () => {
  it("gives each person one caret colour, valid for CollaborationCaret (#rrggbb)", () => {
    const id = "0b7e4c1a-5f1e-4a57-9d7e-3c2f1a0b9e11";
    expect(caretColour(id)).toBe(caretColour(id));
    expect(caretColour(id)).toMatch(/^#[0-9a-f]{6}$/);
    const colours = new Set(Array.from({ length: 40 }, (_, i) => caretColour(`user-${i}`)));
    expect(colours.size).toBeGreaterThan(5);
  });

  it("keeps one local copy per document and person", () => {
    expect(localCopyName("issue.a", "u1")).not.toBe(localCopyName("issue.a", "u2"));
    expect(localCopyName("issue.a", "u1")).not.toBe(localCopyName("page.a", "u1"));
  });
});
