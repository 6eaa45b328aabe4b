import { describe, expect, it } from "vitest";
import type { Notification } from "../../stores/notifications";
import { notificationTarget } from "./target";

function notification(extra: Partial<Notification> = {}, intake?: { id: string }): Notification {
  return {
    id: "n1",
    title: "Ana changed the priority of WEB-7",
    data: {
      issue: { id: "i7", name: "Dark mode", sequence_id: 7, identifier: "WEB", project_id: "p1" },
      issue_activity: null,
      ...(intake ? { intake } : {}),
    },
    entity_identifier: "i7",
    message_stripped: null,
    sender: "in_app:issue_activities:property_change",
    receiver: "u1",
    triggered_by: "u2",
    triggered_by_details: null,
    read_at: null,
    archived_at: null,
    snoozed_till: null,
    is_mentioned_notification: false,
    is_inbox_issue: false,
    workspace: "w1",
    project: "p1",
    created_at: "2026-11-25T10:00:00.000Z",
    updated_at: "2026-11-25T10:00:00.000Z",
    ...extra,
  };
}

describe("notificationTarget", () => {
  it("opens a work item by its key", () => {
    expect(notificationTarget("acme", notification())).toBe("/acme/browse/WEB-7/");
  });

  it("opens an intake request in its project's intake", () => {
    expect(notificationTarget("acme", notification({ is_inbox_issue: true }, { id: "r1" }))).toBe(
      "/acme/projects/p1/intake/?request=r1",
    );
  });

  it("opens the work item once the request was accepted (the flag is off, data.intake stays)", () => {
    expect(notificationTarget("acme", notification({ is_inbox_issue: false }, { id: "r1" }))).toBe(
      "/acme/browse/WEB-7/",
    );
  });

  it("falls back to the work item when the request is not named, and to nothing without an item", () => {
    expect(notificationTarget("acme", notification({ is_inbox_issue: true }))).toBe("/acme/browse/WEB-7/");
    expect(
      notificationTarget("acme", notification({ data: { issue: null }, project: null, entity_identifier: null })),
    ).toBeNull();
  });
});
