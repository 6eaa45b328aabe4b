import i18next, { type TFunction } from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import en from "../../i18n/locales/en.json";
import { DEFAULT_FILTERS, type Notification, query } from "../../stores/notifications";
import { describeNotificationChange, firstWords } from "./describe-change";

let t: TFunction;
beforeAll(async () => {
  const i18n = i18next.createInstance();
  await i18n.init({ resources: { en: { translation: en } }, lng: "en", interpolation: { escapeValue: false } });
  t = i18n.t;
});

function notification(
  kind: string,
  activity: { field: string; old_value?: string | null; new_value?: string | null } | null,
  extra: Partial<Notification> = {},
): Notification {
  return {
    id: "n1",
    title: "Ana changed something on WEB-1",
    data: {
      issue: { id: "i1", name: "Fix login", sequence_id: 1, identifier: "WEB", project_id: "p1" },
      issue_activity: activity ? { verb: "updated", old_value: null, new_value: null, ...activity } : null,
    },
    entity_identifier: "i1",
    message_stripped: null,
    sender: `in_app:issue_activities:${kind}`,
    receiver: "u1",
    triggered_by: "u2",
    triggered_by_details: null,
    read_at: null,
    archived_at: null,
    snoozed_till: null,
    is_mentioned_notification: kind === "mentioned",
    is_inbox_issue: false,
    workspace: "w1",
    project: "p1",
    created_at: "2026-11-25T10:00:00.000Z",
    updated_at: "2026-11-25T10:00:00.000Z",
    ...extra,
  };
}

const say = (n: Notification) => describeNotificationChange(n, t);

describe("describeNotificationChange", () => {
  it("says old → new for state, priority (by name), title, estimate and parent", () => {
    expect(say(notification("state_change", { field: "state", old_value: "Todo", new_value: "In Progress" }))).toBe(
      "State: Todo → In Progress",
    );
    expect(say(notification("issue_completed", { field: "state", old_value: "In Progress", new_value: "Done" }))).toBe(
      "State: In Progress → Done",
    );
    expect(say(notification("property_change", { field: "priority", old_value: "none", new_value: "urgent" }))).toBe(
      "Priority: No priority → Urgent",
    );
    expect(say(notification("property_change", { field: "name", old_value: "Old", new_value: "New" }))).toBe(
      "Title: Old → New",
    );
    expect(say(notification("property_change", { field: "estimate_point", old_value: null, new_value: "5" }))).toBe(
      "Estimate: None → 5",
    );
    expect(say(notification("property_change", { field: "parent", old_value: "WEB-1", new_value: null }))).toBe(
      "Parent: WEB-1 → None",
    );
  });

  it("formats dates, and says None for a date set or cleared", () => {
    expect(
      say(notification("property_change", { field: "target_date", old_value: "2026-11-03", new_value: "2026-11-10" })),
    ).toBe("Due date: Nov 03, 2026 → Nov 10, 2026");
    expect(
      say(notification("property_change", { field: "start_date", old_value: null, new_value: "2026-01-02" })),
    ).toBe("Start date: None → Jan 02, 2026");
    expect(
      say(notification("property_change", { field: "start_date", old_value: "2026-01-02", new_value: null })),
    ).toBe("Start date: Jan 02, 2026 → None");
  });

  it("names the assignee or label added or removed", () => {
    expect(say(notification("property_change", { field: "assignees", new_value: "Ana" }))).toBe("Assignee added: Ana");
    expect(say(notification("property_change", { field: "assignees", old_value: "Ana" }))).toBe(
      "Assignee removed: Ana",
    );
    // Your own (un)assignment: the title says it all.
    expect(say(notification("assigned", { field: "assignees", new_value: "Ana" }))).toBeNull();
    expect(say(notification("unassigned", { field: "assignees", old_value: "Ana" }))).toBeNull();
    expect(say(notification("property_change", { field: "labels", new_value: "bug" }))).toBe("Label added: bug");
    expect(say(notification("property_change", { field: "labels", old_value: "bug" }))).toBe("Label removed: bug");
  });

  it("says the cycle or module a work item joined, left or moved between", () => {
    expect(say(notification("property_change", { field: "cycles", new_value: "Sprint 4" }))).toBe(
      "Added to the cycle Sprint 4",
    );
    expect(say(notification("property_change", { field: "cycles", old_value: "Sprint 3" }))).toBe(
      "Removed from the cycle Sprint 3",
    );
    expect(
      say(notification("property_change", { field: "cycles", old_value: "Sprint 3", new_value: "Sprint 4" })),
    ).toBe("Cycle: Sprint 3 → Sprint 4");
    expect(say(notification("property_change", { field: "modules", new_value: "Checkout" }))).toBe(
      "Added to the module Checkout",
    );
    expect(say(notification("property_change", { field: "modules", old_value: "API" }))).toBe(
      "Removed from the module API",
    );
    expect(say(notification("property_change", { field: "modules" }))).toBeNull();
  });

  it("quotes the first words of a comment, mention or not", () => {
    const long = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen";
    expect(say(notification("comment", { field: "comment", new_value: long }, { message_stripped: long }))).toBe(
      "“one two three four five six seven eight nine ten eleven twelve…”",
    );
    expect(
      say(notification("mentioned", { field: "comment", new_value: "hey @Ana" }, { message_stripped: "hey  @Ana " })),
    ).toBe("“hey @Ana”");
    // An older notification without the message: the history row's text.
    expect(say(notification("comment", { field: "comment", new_value: "short one" }))).toBe("“short one”");
  });

  it("says a mention in the description, and a description change", () => {
    expect(say(notification("mentioned", { field: "description" }))).toBe("Mentioned you in the description");
    expect(say(notification("property_change", { field: "description" }))).toBe("Description updated");
  });

  it("is null when there is nothing more to say than the title", () => {
    expect(say(notification("property_change", null))).toBeNull();
    expect(say(notification("property_change", { field: "something_new", old_value: "a", new_value: "b" }))).toBeNull();
    expect(say(notification("property_change", { field: "labels" }))).toBeNull();
  });
});

describe("firstWords", () => {
  it("collapses whitespace and cuts with an ellipsis", () => {
    expect(firstWords("  a\n b\tc  ", 2)).toBe("a b…");
    expect(firstWords("a b", 2)).toBe("a b");
    expect(firstWords(null)).toBe("");
  });
});

describe("the notifications list query", () => {
  it("the All tab asks for every kind (mentions included); Mentions only mentions", () => {
    expect(query("all", DEFAULT_FILTERS)).not.toHaveProperty("mentioned");
    expect(query("mentions", DEFAULT_FILTERS)).toMatchObject({ mentioned: "true" });
  });
});
