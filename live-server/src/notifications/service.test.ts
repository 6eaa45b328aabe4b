import type { DomainEvent } from "@tideline/shared";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../test/harness.ts";
import { notifications } from "../db/schema.ts";
import { createLabel, stateOf } from "../routes/issues/test-support.ts";
import { mentionedUserIds } from "./mentions.ts";
import { notificationServiceOf } from "./service.ts";
import {
  apiComment,
  apiCreate,
  apiPatch,
  createNotifyFixture,
  mention,
  type NotifyFixture,
  rowsAbout,
  rowsOf,
  setPreferences,
  settle,
} from "./test-support.ts";

let t: TestApp;
let f: NotifyFixture;
beforeAll(async () => {
  t = await createTestApp();
  f = await createNotifyFixture(t);
});
afterAll(() => t.close());

const ALL_ON = { property_change: true, state_change: true, comment: true, mention: true, issue_completed: true };
beforeEach(async () => {
  for (const user of [f.w.admin, f.w.member, f.member2, f.w.guest]) await setPreferences(t, user, ALL_ON);
});

describe("mentions in rich text", () => {
  it("finds user mentions whatever the attribute order or quoting, once each, ignoring other entities", () => {
    const a = "0a0b0c0d-0000-4000-8000-000000000001";
    const b = "0a0b0c0d-0000-4000-8000-000000000002";
    const html =
      `<p>Hi <mention-component entity_identifier="${a}" entity_name="user_mention"></mention-component> and ` +
      `<mention-component entity_name='user_mention' id="x" entity_identifier='${b.toUpperCase()}'></mention-component>` +
      ` again <mention-component entity_identifier="${a}"></mention-component>` +
      ` <mention-component entity_name="issue_mention" entity_identifier="0a0b0c0d-0000-4000-8000-000000000003"></mention-component>` +
      ` <mention-component entity_identifier="not-a-uuid"></mention-component></p>`;
    expect(mentionedUserIds(html)).toEqual([a, b]);
    expect(mentionedUserIds("<p>no one</p>")).toEqual([]);
    expect(mentionedUserIds(null)).toEqual([]);
  });
});

describe("issue.created", () => {
  it("tells the assignees (not the actor, not a guest who can't see the item), after its own commit", async () => {
    const committed: Promise<boolean>[] = [];
    const seen: DomainEvent[] = [];
    const stop = t.app.ctx.events.subscribe((e) => {
      if (e.type !== "notification.created") return;
      seen.push(e);
      committed.push(
        t.db
          .select()
          .from(notifications)
          .where(eq(notifications.id, e.entity_id))
          .then((rows) => rows.length === 1),
      );
    });
    const item = await apiCreate(t, f, f.w.admin, {
      name: "Ship it",
      assignee_ids: [f.w.admin.id, f.w.member.id, f.w.guest.id],
    });
    stop();
    const rows = await rowsAbout(t, item.id);
    expect(rows.map((r) => r.receiverId)).toEqual([f.w.member.id]);
    const [n] = rows;
    expect(n).toMatchObject({
      workspaceId: f.w.workspaceId,
      projectId: f.project.id,
      triggeredById: f.w.admin.id,
      entityIdentifier: item.id,
      entityName: "issue",
      title: `${f.w.admin.displayName} assigned you to ${f.key(item.sequence_id)}`,
      sender: "in_app:issue_activities:assigned",
      isMentionedNotification: false,
      readAt: null,
      archivedAt: null,
      snoozedTill: null,
    });
    expect(n?.data).toMatchObject({
      issue: {
        id: item.id,
        name: "Ship it",
        sequence_id: item.sequence_id,
        identifier: f.project.identifier,
        project_id: f.project.id,
        state_group: "backlog",
      },
      issue_activity: {
        verb: "updated",
        field: "assignees",
        old_value: "",
        new_identifier: f.w.member.id,
        actor: f.w.admin.id,
      },
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      type: "notification.created",
      workspace_id: f.w.workspaceId,
      project_id: f.project.id,
      entity_id: n?.id,
      actor_id: f.w.admin.id,
      client_mutation_id: null,
      data: {
        id: n?.id,
        receiver: f.w.member.id,
        receiver_id: f.w.member.id,
        triggered_by: f.w.admin.id,
        triggered_by_details: { id: f.w.admin.id, display_name: f.w.admin.displayName },
        unread_counts: { total_unread_notifications_count: expect.any(Number), mention_unread_notifications_count: 0 },
      },
    });
    expect(await Promise.all(committed)).toEqual([true]);
  });

  it("mentions in the description reach project members only, never the author", async () => {
    const item = await apiCreate(t, f, f.w.member, {
      description_html: `<p>${mention(f.member2)} ${mention(f.w.outsider)} ${mention(f.w.member)} ${mention(f.w.stranger)}</p>`,
    });
    const rows = await rowsAbout(t, item.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      receiverId: f.member2.id,
      isMentionedNotification: true,
      sender: "in_app:issue_activities:mentioned",
      title: `${f.w.member.displayName} mentioned you in ${f.key(item.sequence_id)}`,
    });
  });

  it("respects property_change (assignment) and mention preferences", async () => {
    await setPreferences(t, f.w.member, { property_change: false });
    await setPreferences(t, f.member2, { mention: false });
    const item = await apiCreate(t, f, f.w.admin, {
      assignee_ids: [f.w.member.id],
      description_html: `<p>${mention(f.member2)}</p>`,
    });
    expect(await rowsAbout(t, item.id)).toEqual([]);
  });
});

describe("issue.updated", () => {
  it("state change: subscribers and assignees, not the actor; completion is issue_completed", async () => {
    const item = await apiCreate(t, f, f.w.admin, { assignee_ids: [f.member2.id] });
    const started = await stateOf(t, f.project.id, "started");
    const done = await stateOf(t, f.project.id, "completed");
    const before = (await rowsAbout(t, item.id)).length;
    await apiPatch(t, f, f.w.member, item.id, { state_id: started });
    const after = (await rowsAbout(t, item.id)).slice(before);
    expect(after.map((r) => r.receiverId).sort()).toEqual([f.w.admin.id, f.member2.id].sort());
    for (const r of after) {
      expect(r).toMatchObject({
        title: `${f.w.member.displayName} changed the state of ${f.key(item.sequence_id)}`,
        sender: "in_app:issue_activities:state_change",
        triggeredById: f.w.member.id,
      });
      expect(r.data).toMatchObject({
        issue: { state_id: started, state_group: "started" },
        issue_activity: { field: "state", verb: "updated", new_identifier: started, actor: f.w.member.id },
      });
      expect((r.data as { issue_activity: { old_value: string } }).issue_activity.old_value).toBeTruthy();
    }
    await apiPatch(t, f, f.w.member, item.id, { state_id: done });
    const completed = (await rowsAbout(t, item.id)).slice(before + 2);
    expect(completed.map((r) => r.sender)).toEqual([
      "in_app:issue_activities:issue_completed",
      "in_app:issue_activities:issue_completed",
    ]);
  });

  it("state_change off: no state notifications, but completions still come while issue_completed is on", async () => {
    const item = await apiCreate(t, f, f.w.admin, { assignee_ids: [f.member2.id] });
    await setPreferences(t, f.member2, { state_change: false });
    const start = (await rowsOf(t, f.member2.id)).length;
    await apiPatch(t, f, f.w.admin, item.id, { state_id: await stateOf(t, f.project.id, "started") });
    expect((await rowsOf(t, f.member2.id)).length).toBe(start);
    await apiPatch(t, f, f.w.admin, item.id, { state_id: await stateOf(t, f.project.id, "completed") });
    const mine = (await rowsOf(t, f.member2.id)).slice(start);
    expect(mine.map((r) => r.sender)).toEqual(["in_app:issue_activities:issue_completed"]);
    await setPreferences(t, f.member2, { issue_completed: false });
    await apiPatch(t, f, f.w.admin, item.id, { state_id: await stateOf(t, f.project.id, "started") });
    await apiPatch(t, f, f.w.admin, item.id, { state_id: await stateOf(t, f.project.id, "completed") });
    expect((await rowsOf(t, f.member2.id)).length).toBe(start + 1);
  });

  it("an added assignee hears alone; a removed one is told too; other followers are not", async () => {
    const item = await apiCreate(t, f, f.w.admin, { assignee_ids: [f.w.member.id] });
    const before = (await rowsAbout(t, item.id)).length;
    await apiPatch(t, f, f.w.admin, item.id, { assignee_ids: [f.member2.id] });
    const rows = (await rowsAbout(t, item.id)).slice(before);
    expect(rows.map((r) => [r.receiverId, r.sender, r.title])).toEqual(
      expect.arrayContaining([
        [
          f.member2.id,
          "in_app:issue_activities:assigned",
          `${f.w.admin.displayName} assigned you to ${f.key(item.sequence_id)}`,
        ],
        [
          f.w.member.id,
          "in_app:issue_activities:unassigned",
          `${f.w.admin.displayName} unassigned you from ${f.key(item.sequence_id)}`,
        ],
      ]),
    );
    expect(rows).toHaveLength(2);
    expect(rows.find((r) => r.receiverId === f.member2.id)?.data).toMatchObject({
      issue_activity: { field: "assignees", new_identifier: f.member2.id, new_value: f.member2.displayName },
    });
  });

  it("other fields: one notification per change to each follower, with old and new values", async () => {
    const item = await apiCreate(t, f, f.w.admin, { assignee_ids: [f.w.member.id], priority: "low" });
    const label = await createLabel(t, f.project.id, "Bug");
    const before = (await rowsOf(t, f.w.member.id)).length;
    await apiPatch(t, f, f.w.admin, item.id, { priority: "urgent", label_ids: [label], name: "Renamed" });
    const rows = (await rowsOf(t, f.w.member.id)).slice(before);
    const key = f.key(item.sequence_id);
    const name = f.w.admin.displayName;
    expect(rows.map((r) => r.title).sort()).toEqual(
      [
        `${name} added the label Bug to ${key}`,
        `${name} changed the priority of ${key}`,
        `${name} changed the title of ${key}`,
      ].sort(),
    );
    expect(rows.every((r) => r.sender === "in_app:issue_activities:property_change")).toBe(true);
    expect(rows.find((r) => r.title.includes("priority"))?.data).toMatchObject({
      issue: { name: "Renamed", priority: "urgent" },
      issue_activity: { field: "priority", old_value: "low", new_value: "urgent", actor: f.w.admin.id },
    });
    // sort_order is not a change people are told about.
    await apiPatch(t, f, f.w.admin, item.id, { sort_order: 12345 });
    expect((await rowsOf(t, f.w.member.id)).length).toBe(before + 3);
  });

  it("someone who unsubscribed (and is not assigned) hears nothing; property_change off silences field changes", async () => {
    const item = await apiCreate(t, f, f.w.member, {});
    const sub = await client(t.app, f.w.member).delete(`${f.project.url}/issues/${item.id}/subscribe/`);
    expect(sub.statusCode, sub.body).toBeLessThan(300);
    await apiPatch(t, f, f.w.admin, item.id, { priority: "high" });
    expect(await rowsAbout(t, item.id)).toEqual([]);
    await client(t.app, f.w.member).post(`${f.project.url}/issues/${item.id}/subscribe/`);
    await setPreferences(t, f.w.member, { property_change: false });
    await apiPatch(t, f, f.w.admin, item.id, { priority: "low" });
    expect(await rowsAbout(t, item.id)).toEqual([]);
  });

  it("a description change tells followers; people it newly mentions get a mention instead, once", async () => {
    const item = await apiCreate(t, f, f.w.admin, { assignee_ids: [f.w.member.id, f.member2.id] });
    const before = (await rowsAbout(t, item.id)).length;
    await apiPatch(t, f, f.w.admin, item.id, { description_html: `<p>See ${mention(f.member2)}</p>` });
    let rows = (await rowsAbout(t, item.id)).slice(before);
    expect(rows.map((r) => [r.receiverId, r.sender]).sort()).toEqual(
      [
        [f.w.member.id, "in_app:issue_activities:property_change"],
        [f.member2.id, "in_app:issue_activities:mentioned"],
      ].sort(),
    );
    // Editing again with the same mention: an ordinary notification, no second mention.
    await apiPatch(t, f, f.w.admin, item.id, { description_html: `<p>Still ${mention(f.member2)}</p>` });
    rows = (await rowsAbout(t, item.id)).slice(before + 2);
    expect(rows.map((r) => [r.receiverId, r.isMentionedNotification]).sort()).toEqual(
      [
        [f.w.member.id, false],
        [f.member2.id, false],
      ].sort(),
    );
  });

  it("a description saved from the live editor tells only the people it newly mentions", async () => {
    const item = await apiCreate(t, f, f.w.admin, { assignee_ids: [f.w.member.id] });
    await apiPatch(t, f, f.w.admin, item.id, { description_html: "<p>over REST</p>" });
    const before = (await rowsAbout(t, item.id)).length;
    const service = notificationServiceOf(t.app.ctx);
    if (!service) throw new Error("missing");
    const liveSave = (html: string): DomainEvent => ({
      id: crypto.randomUUID(),
      type: "issue.updated",
      workspace_id: f.w.workspaceId,
      project_id: f.project.id,
      entity_id: item.id,
      actor_id: f.w.admin.id,
      client_mutation_id: "live:instance-1",
      occurred_at: new Date().toISOString(),
      data: { id: item.id, changed_fields: ["description_html"], description_html: html },
    });
    expect(await service.handle(liveSave(`<p>typing ${mention(f.member2)}</p>`))).toBe(1);
    expect(await service.handle(liveSave(`<p>typing more ${mention(f.member2)}</p>`))).toBe(0);
    expect(await service.handle(liveSave("<p>no mentions</p>"))).toBe(0);
    const rows = (await rowsAbout(t, item.id)).slice(before);
    expect(rows.map((r) => [r.receiverId, r.sender])).toEqual([[f.member2.id, "in_app:issue_activities:mentioned"]]);
  });
});

describe("comment.created and comment.updated", () => {
  it("followers get the comment (message included); a mentioned follower gets only the mention; never the author", async () => {
    const item = await apiCreate(t, f, f.w.admin, { assignee_ids: [f.w.member.id, f.member2.id] });
    const before = (await rowsAbout(t, item.id)).length;
    const comment = await apiComment(
      t,
      f,
      f.w.member,
      item.id,
      `<p>Look ${mention(f.member2)} ${mention(f.w.outsider)} ${mention(f.w.member)}</p>`,
    );
    const rows = (await rowsAbout(t, item.id)).slice(before);
    const key = f.key(item.sequence_id);
    expect(rows.map((r) => [r.receiverId, r.sender, r.title]).sort()).toEqual(
      [
        [f.w.admin.id, "in_app:issue_activities:comment", `${f.w.member.displayName} commented on ${key}`],
        [
          f.member2.id,
          "in_app:issue_activities:mentioned",
          `${f.w.member.displayName} mentioned you in a comment on ${key}`,
        ],
      ].sort(),
    );
    for (const r of rows) {
      expect(r.messageHtml).toContain("Look");
      expect(r.messageStripped).toContain("Look");
      expect(r.data).toMatchObject({ issue_activity: { field: "comment", issue_comment: comment.id } });
    }
    expect(rows.find((r) => r.receiverId === f.member2.id)?.isMentionedNotification).toBe(true);
  });

  it("comment off silences comments; mention off turns a mention into the ordinary comment notification", async () => {
    const item = await apiCreate(t, f, f.w.admin, { assignee_ids: [f.w.member.id, f.member2.id] });
    await setPreferences(t, f.w.member, { comment: false });
    await setPreferences(t, f.member2, { mention: false });
    const before = (await rowsAbout(t, item.id)).length;
    await apiComment(t, f, f.w.admin, item.id, `<p>${mention(f.member2)} ${mention(f.w.member)}</p>`);
    const rows = (await rowsAbout(t, item.id)).slice(before);
    expect(rows.map((r) => [r.receiverId, r.sender]).sort()).toEqual(
      [
        [f.w.member.id, "in_app:issue_activities:mentioned"],
        [f.member2.id, "in_app:issue_activities:comment"],
      ].sort(),
    );
  });

  it("editing a comment tells only people it newly mentions, once", async () => {
    const item = await apiCreate(t, f, f.w.admin, { assignee_ids: [f.w.member.id] });
    const comment = await apiComment(t, f, f.w.admin, item.id, "<p>first</p>");
    const before = (await rowsAbout(t, item.id)).length;
    const url = `${f.project.url}/issues/${item.id}/comments/${comment.id}/`;
    const edit = async (html: string) => {
      const res = await client(t.app, f.w.admin).patch(url, { comment_html: html });
      expect(res.statusCode, res.body).toBe(200);
      await settle(t);
    };
    await edit(`<p>now ${mention(f.member2)}</p>`);
    await edit(`<p>still ${mention(f.member2)}, edited</p>`);
    const rows = (await rowsAbout(t, item.id)).slice(before);
    expect(rows.map((r) => [r.receiverId, r.sender])).toEqual([[f.member2.id, "in_app:issue_activities:mentioned"]]);
    expect(rows[0]?.messageStripped).toContain("now");
  });
});

describe("robustness", () => {
  it("an event handled late, after a newer change to the same item, still reports its own change", async () => {
    const item = await apiCreate(t, f, f.w.admin, { assignee_ids: [f.w.member.id] });
    const heard: DomainEvent[] = [];
    const stop = t.app.ctx.events.subscribe((e) => {
      if (e.type === "issue.updated" && e.entity_id === item.id) heard.push(e);
    });
    const started = await stateOf(t, f.project.id, "started");
    const done = await stateOf(t, f.project.id, "completed");
    await apiPatch(t, f, f.w.admin, item.id, { state_id: started });
    await apiPatch(t, f, f.w.admin, item.id, { state_id: done });
    stop();
    await t.db.delete(notifications).where(eq(notifications.entityIdentifier, item.id));
    const service = notificationServiceOf(t.app.ctx);
    const [first] = heard;
    if (!service || !first) throw new Error("missing");
    expect(await service.handle(first)).toBe(1);
    const [row] = await rowsAbout(t, item.id);
    expect(row?.sender).toBe("in_app:issue_activities:state_change");
    expect(row?.data).toMatchObject({ issue_activity: { field: "state", new_identifier: started } });
  });

  it("an event heard twice (relayed from another instance) makes its notifications once", async () => {
    const heard: DomainEvent[] = [];
    const stop = t.app.ctx.events.subscribe((e) => {
      if (e.type === "comment.created") heard.push(e);
    });
    const item = await apiCreate(t, f, f.w.admin, { assignee_ids: [f.w.member.id] });
    await apiComment(t, f, f.w.admin, item.id, "<p>hello</p>");
    stop();
    const service = notificationServiceOf(t.app.ctx);
    const [event] = heard;
    if (!service || !event) throw new Error("missing");
    const before = await rowsAbout(t, item.id);
    expect(await service.handle(event)).toBe(0);
    expect(await rowsAbout(t, item.id)).toHaveLength(before.length);
  });

  it("nothing for drafts, and nothing for an item deleted before its event is handled", async () => {
    const draft = await client(t.app, f.w.admin).post(`${f.project.url}/issue-drafts/`, {
      name: "Draft",
      assignee_ids: [f.w.member.id],
    });
    expect(draft.statusCode, draft.body).toBe(201);
    await settle(t);
    expect(await rowsAbout(t, draft.json().id)).toEqual([]);
    const service = notificationServiceOf(t.app.ctx);
    if (!service) throw new Error("missing");
    const gone = await service.handle({
      id: crypto.randomUUID(),
      type: "issue.created",
      workspace_id: f.w.workspaceId,
      project_id: f.project.id,
      entity_id: crypto.randomUUID(),
      actor_id: f.w.admin.id,
      client_mutation_id: null,
      occurred_at: new Date().toISOString(),
      data: { assignee_ids: [f.w.member.id] },
    });
    expect(gone).toBe(0);
    const mine = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.receiverId, f.w.member.id), eq(notifications.entityIdentifier, draft.json().id)));
    expect(mine).toEqual([]);
  });
});
