import { describe, expect, it } from "vitest";
import en from "../../i18n/locales/en.json";
import {
  type ActivityRow,
  describeActivity,
  describeActivitySegments,
  foldActivity,
  type Translate,
} from "./activity-format";

/** The real English strings with i18next's {{name}} interpolation. */
const t: Translate = (key, vars = {}) => {
  let node: unknown = en;
  for (const part of key.split(".")) node = (node as Record<string, unknown> | undefined)?.[part];
  if (typeof node !== "string") return key;
  return node.replace(/\{\{(\w+)\}\}/g, (_, name: string) => vars[name] ?? "");
};

const ada = { first_name: "Ada", last_name: "Lovelace", display_name: "ada" };

function row(partial: Partial<ActivityRow>): ActivityRow {
  return {
    verb: "updated",
    field: null,
    old_value: null,
    new_value: null,
    old_identifier: null,
    new_identifier: null,
    actor_detail: ada,
    ...partial,
  };
}

describe("describeActivity", () => {
  it("names the change of state, resolving the states by id", () => {
    const states: Record<string, string> = { s1: "Todo", s2: "In Progress" };
    const sentence = describeActivity(
      row({ field: "state", old_value: "Old todo", new_value: "Doing", old_identifier: "s1", new_identifier: "s2" }),
      t,
      { state: (id) => states[id] },
    );
    expect(sentence).toBe("ada changed the state from Todo to In Progress");
  });

  it("falls back to the stored names when the ids are unknown", () => {
    const sentence = describeActivity(
      row({ field: "state", old_value: "Todo", new_value: "Done", old_identifier: "gone", new_identifier: "gone2" }),
      t,
      { state: () => undefined },
    );
    expect(sentence).toBe("ada changed the state from Todo to Done");
  });

  it("says created, archived and restored", () => {
    expect(describeActivity(row({ verb: "created", new_value: "Thing" }), t)).toBe("ada created the work item");
    expect(describeActivity(row({ verb: "archived", field: "archived_at" }), t)).toBe("ada archived the work item");
    expect(describeActivity(row({ verb: "restored", field: "archived_at" }), t)).toBe("ada restored the work item");
  });

  it("reads priorities with their labels", () => {
    expect(describeActivity(row({ field: "priority", old_value: "none", new_value: "high" }), t)).toBe(
      "ada changed the priority from None to High",
    );
  });

  it("assigns and unassigns people by their current name", () => {
    const members: Record<string, string> = { u2: "Bob Builder" };
    const resolve = { member: (id: string) => members[id] };
    expect(describeActivity(row({ field: "assignees", new_value: "bob", new_identifier: "u2" }), t, resolve)).toBe(
      "ada assigned Bob Builder",
    );
    expect(describeActivity(row({ field: "assignees", old_value: "bob", old_identifier: "u2" }), t, resolve)).toBe(
      "ada unassigned Bob Builder",
    );
  });

  it("adds and removes labels", () => {
    expect(describeActivity(row({ field: "labels", new_value: "bug", new_identifier: "l1" }), t)).toBe(
      "ada added the label bug",
    );
    expect(describeActivity(row({ field: "labels", old_value: "bug", old_identifier: "l1" }), t)).toBe(
      "ada removed the label bug",
    );
  });

  it("formats dates as MMM dd, yyyy and says when one is removed", () => {
    expect(describeActivity(row({ field: "target_date", new_value: "2026-01-05" }), t)).toBe(
      "ada set the due date to Jan 05, 2026",
    );
    expect(describeActivity(row({ field: "start_date", old_value: "2026-01-05" }), t)).toBe(
      "ada removed the start date",
    );
  });

  it("describes links, attachments, sub-items and the parent", () => {
    expect(describeActivity(row({ verb: "created", field: "link", new_value: "https://x.dev/" }), t)).toBe(
      "ada added the link https://x.dev/",
    );
    expect(describeActivity(row({ verb: "deleted", field: "attachment", old_value: "a.pdf" }), t)).toBe(
      "ada removed the attachment a.pdf",
    );
    expect(describeActivity(row({ verb: "created", field: "sub_issue", new_value: "WEB-4" }), t)).toBe(
      "ada added WEB-4 as a sub-item",
    );
    expect(describeActivity(row({ field: "parent", new_value: "WEB-1", new_identifier: "p" }), t)).toBe(
      "ada set the parent to WEB-1",
    );
    expect(describeActivity(row({ field: "parent", old_value: "WEB-1", old_identifier: "p" }), t)).toBe(
      "ada removed the parent WEB-1",
    );
  });

  it("describes relations from this item's side", () => {
    expect(describeActivity(row({ verb: "created", field: "blocked_by", new_value: "WEB-2" }), t)).toBe(
      "ada marked this as blocked by WEB-2",
    );
    expect(describeActivity(row({ verb: "deleted", field: "duplicate", old_value: "WEB-3" }), t)).toBe(
      "ada removed the duplicate relation with WEB-3",
    );
  });

  it("uses the display name, then 'Someone', when the full name is missing", () => {
    const noName = { first_name: "", last_name: "", display_name: "ghost" };
    expect(describeActivity(row({ field: "description", actor_detail: noName }), t)).toBe(
      "ghost updated the description",
    );
    expect(describeActivity(row({ field: "description", actor_detail: null }), t)).toBe(
      "Someone updated the description",
    );
  });

  it("says a work item was added to, removed from or moved between cycles", () => {
    const cycles: Record<string, string> = { c4: "Sprint 4 (renamed)" };
    const resolve = { cycle: (id: string) => cycles[id] };
    expect(describeActivity(row({ field: "cycles", new_value: "Sprint 4", new_identifier: "c9" }), t)).toBe(
      "ada added this work item to the cycle Sprint 4",
    );
    expect(describeActivity(row({ field: "cycles", old_value: "Sprint 3", old_identifier: "c3" }), t)).toBe(
      "ada removed it from the cycle Sprint 3",
    );
    expect(
      describeActivity(
        row({
          field: "cycles",
          old_value: "Sprint 3",
          old_identifier: "c3",
          new_value: "Sprint 4",
          new_identifier: "c4",
        }),
        t,
        resolve,
      ),
    ).toBe("ada moved this work item from the cycle Sprint 3 to the cycle Sprint 4 (renamed)");
    // A cycle deleted before its name was recorded still reads as a sentence.
    expect(describeActivity(row({ field: "cycles", old_identifier: "gone" }), t)).toBe(
      "ada removed it from the cycle (deleted)",
    );
  });

  it("says a work item was added to or removed from a module", () => {
    const resolve = { module: (id: string) => (id === "m1" ? "Checkout" : undefined) };
    expect(describeActivity(row({ field: "modules", new_value: "Web", new_identifier: "m1" }), t, resolve)).toBe(
      "ada added it to the module Checkout",
    );
    expect(describeActivity(row({ field: "modules", old_value: "API", old_identifier: "m2" }), t, resolve)).toBe(
      "ada removed it from the module API",
    );
  });

  it('reads rows as the server writes them now, the reference\'s way ("" on the emptied side)', () => {
    const resolve = { member: (id: string) => (id === "u2" ? "Bob Builder" : undefined) };
    const say = (partial: Partial<ActivityRow>, r = {}) => describeActivity(row(partial), t, r);
    expect(say({ field: "assignees", old_value: "", new_value: "bob", new_identifier: "u2" }, resolve)).toBe(
      "ada assigned Bob Builder",
    );
    expect(say({ field: "assignees", old_value: "bob", new_value: "", old_identifier: "u2" }, resolve)).toBe(
      "ada unassigned Bob Builder",
    );
    // A relation added: "updated", "" → the other's key, the other item in old_identifier.
    expect(say({ field: "blocked_by", old_value: "", new_value: "WEB-2", old_identifier: "i2" })).toBe(
      "ada marked this as blocked by WEB-2",
    );
    expect(say({ verb: "deleted", field: "duplicate", old_value: "WEB-3", new_value: "", old_identifier: "i3" })).toBe(
      "ada removed the duplicate relation with WEB-3",
    );
    expect(say({ field: "archived_at", new_value: "manual_archive" })).toBe("ada archived the work item");
    expect(say({ field: "archived_at", old_value: "archive", new_value: "restore" })).toBe(
      "ada restored the work item",
    );
    expect(say({ verb: "deleted", field: "issue" })).toBe("ada deleted the work item");
    expect(say({ field: "estimate_points", new_value: "3", new_identifier: "e3" })).toBe("ada set the estimate to 3");
    expect(say({ verb: "removed", field: "estimate_categories", old_value: "M", old_identifier: "e1" })).toBe(
      "ada removed the estimate",
    );
    expect(say({ field: "start_date", old_value: "2026-01-05", new_value: "" })).toBe("ada removed the start date");
    expect(say({ field: "target_date", old_value: "", new_value: "2026-01-05" })).toBe(
      "ada set the due date to Jan 05, 2026",
    );
    expect(say({ field: "parent", old_value: "WEB-1", new_value: "", old_identifier: "p" })).toBe(
      "ada removed the parent WEB-1",
    );
    expect(say({ verb: "created", field: "cycles", old_value: "", new_value: "Sprint 4", new_identifier: "c4" })).toBe(
      "ada added this work item to the cycle Sprint 4",
    );
    expect(say({ verb: "deleted", field: "modules", old_value: "API", new_value: "", old_identifier: "m2" })).toBe(
      "ada removed it from the module API",
    );
    // An attachment row records the file's address: the name comes from the item's attachments.
    const attachment = { attachment: (id: string) => (id === "f1" ? "spec.pdf" : undefined) };
    const uploaded = { verb: "created", field: "attachment", new_value: "/api/assets/v2/x/f1/", new_identifier: "f1" };
    expect(say(uploaded, attachment)).toBe("ada uploaded spec.pdf");
    expect(say(uploaded)).toBe("ada uploaded an attachment");
    expect(say({ verb: "deleted", field: "attachment" })).toBe("ada removed an attachment");
  });

  it("never leaves an unknown field unsaid", () => {
    expect(describeActivity(row({ field: "cycle_id" }), t)).toBe("ada updated the cycle id");
  });
});

describe("foldActivity", () => {
  const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 12, minutes)).toISOString();
  const change = (field: string, minutes: number, actor = "a", extra: Partial<ActivityRow> = {}) => ({
    ...row({ field, ...extra }),
    created_at: at(minutes),
    actor,
  });

  it("shows a run of description saves by one person once", () => {
    const rows = [change("description", 0), change("description", 1), change("description", 3)];
    expect(foldActivity(rows)).toHaveLength(1);
  });

  it("keeps saves apart when someone else or something else came between, or much later", () => {
    const rows = [
      change("description", 0),
      change("description", 1, "b"),
      change("state", 2),
      change("description", 3),
      change("description", 40),
    ];
    expect(foldActivity(rows)).toHaveLength(5);
  });

  it("keeps the first old title and the last new one", () => {
    const rows = [
      change("name", 0, "a", { old_value: "A", new_value: "B" }),
      change("name", 1, "a", { old_value: "B", new_value: "C" }),
    ];
    const [folded] = foldActivity(rows);
    expect(folded?.old_value).toBe("A");
    expect(folded?.new_value).toBe("C");
  });
});

describe("describeActivitySegments (the timeline's sentences with links)", () => {
  const cycles: Record<string, string> = { c3: "Sprint 3", c4: "Sprint 4 (renamed)" };
  const modules: Record<string, string> = { m1: "Checkout" };
  const resolve = { cycle: (id: string) => cycles[id], module: (id: string) => modules[id] };

  it("a cycle the project still lists: its current name, as a reference", () => {
    expect(
      describeActivitySegments(row({ field: "cycles", new_value: "Sprint 4", new_identifier: "c4" }), t, resolve),
    ).toEqual([
      { text: "ada added this work item to the cycle " },
      { text: "Sprint 4 (renamed)", ref: { kind: "cycle", id: "c4" } },
    ]);
  });

  it("a move names both cycles as references", () => {
    const segments = describeActivitySegments(
      row({ field: "cycles", old_value: "S3", new_value: "S4", old_identifier: "c3", new_identifier: "c4" }),
      t,
      resolve,
    );
    expect(segments.map((s) => s.text).join("")).toBe(
      "ada moved this work item from the cycle Sprint 3 to the cycle Sprint 4 (renamed)",
    );
    expect(segments.filter((s) => s.ref).map((s) => s.ref)).toEqual([
      { kind: "cycle", id: "c3" },
      { kind: "cycle", id: "c4" },
    ]);
  });

  it("a module, and a gone module (plain text under its recorded name)", () => {
    expect(
      describeActivitySegments(row({ field: "modules", new_value: "Old", new_identifier: "m1" }), t, resolve),
    ).toEqual([{ text: "ada added it to the module " }, { text: "Checkout", ref: { kind: "module", id: "m1" } }]);
    expect(
      describeActivitySegments(row({ field: "modules", old_value: "Legacy", old_identifier: "gone" }), t, resolve),
    ).toEqual([{ text: describeActivity(row({ field: "modules", old_value: "Legacy", old_identifier: "gone" }), t) }]);
  });

  it("other rows are one plain segment", () => {
    expect(describeActivitySegments(row({ verb: "created" }), t)).toEqual([{ text: "ada created the work item" }]);
  });
});
