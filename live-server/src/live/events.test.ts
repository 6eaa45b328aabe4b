/**
 * Domain events reach the right live channels, and REST writes to a description reach the
 * editors that have it open.
 */
import { randomUUID } from "node:crypto";
import {
  type DomainEvent,
  issueDocumentName,
  LIVE_MUTATION_PREFIX,
  pageDocumentName,
  projectChannelName,
  userChannelName,
} from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../../test/harness.ts";
import { issues, pages } from "../db/schema.ts";
import { createFixture, createIssue, type Fixture } from "../routes/issues/test-support.ts";
import {
  appendParagraph,
  bodyText,
  eventually,
  insertPage,
  type LiveServer,
  logRows,
  openTab,
  startLiveServer,
  synced,
  type Tab,
} from "./test-support.ts";

let s: LiveServer;
let f: Fixture;
const tabs: Tab[] = [];
const tab = (...args: Parameters<typeof openTab>) => {
  const opened = openTab(...args);
  tabs.push(opened);
  return opened;
};

beforeAll(async () => {
  s = await startLiveServer();
  f = await createFixture(s);
});

afterAll(async () => {
  for (const t of tabs) t.destroy();
  await s.close();
});

const eventTypes = (doc: { messages: { event: DomainEvent }[] }) => doc.messages.map((m) => m.event.type);

describe("project channel", () => {
  it("sends a project member an issue.updated event after a REST PATCH", async () => {
    const item = await createIssue(s, f.w.admin, f.project.url, { name: "Before" });
    const channel = tab(s.url, f.w.member).open(projectChannelName(f.project.id));
    await synced(channel);
    const mutationId = randomUUID();
    const res = await client(s.app, f.w.admin).patch(
      `${f.project.url}/issues/${item.id}/`,
      { name: "After" },
      { "x-client-mutation-id": mutationId },
    );
    expect(res.statusCode, res.body).toBe(200);
    const message = await eventually(() => {
      const found = channel.messages.find((m) => m.event.type === "issue.updated" && m.event.entity_id === item.id);
      if (!found) throw new Error("no issue.updated yet");
      return found;
    });
    expect(message.type).toBe("event");
    expect(message.event).toMatchObject({
      project_id: f.project.id,
      actor_id: f.w.admin.id,
      client_mutation_id: mutationId,
      data: { id: item.id, name: "After", changed_fields: ["name"] },
    });
  });

  it("sends nothing of a project to members of another project", async () => {
    const other = tab(s.url, f.w.stranger).open(projectChannelName(f.foreign.id));
    await synced(other);
    const mine = tab(s.url, f.w.member).open(projectChannelName(f.project.id));
    await synced(mine);
    await createIssue(s, f.w.admin, f.project.url, { name: "Only here" });
    await eventually(() => expect(eventTypes(mine)).toContain("issue.created"));
    expect(other.messages).toEqual([]);
  });

  it("gives a restricted guest only the events of items they created", async () => {
    const channel = tab(s.url, f.w.guest).open(projectChannelName(f.project.id));
    const member = tab(s.url, f.w.member).open(projectChannelName(f.project.id));
    await synced(channel);
    await synced(member);
    const others = await createIssue(s, f.w.admin, f.project.url, { name: "Not the guest's" });
    await eventually(() => expect(member.messages.some((m) => m.event.entity_id === others.id)).toBe(true));
    // A state change is project-wide: the guest gets it, and it proves delivery has caught up.
    s.app.ctx.events.publish([fakeEvent("state.updated", f.project.id, {})]);
    await eventually(() => expect(eventTypes(channel)).toContain("state.updated"));
    expect(channel.messages.some((m) => m.event.entity_id === others.id)).toBe(false);
  });
});

describe("user channel", () => {
  it("sends a notification to its receiver only, never to the project channel", async () => {
    const receiver = tab(s.url, f.w.member);
    const own = receiver.open(userChannelName(f.w.member.id));
    const project = receiver.open(projectChannelName(f.project.id));
    const someoneElse = tab(s.url, f.w.admin).open(userChannelName(f.w.admin.id));
    await synced(own);
    await synced(project);
    await synced(someoneElse);
    const event = fakeEvent("notification.created", f.project.id, { receiver: f.w.member.id, title: "Hi" });
    s.app.ctx.events.publish([event]);
    await eventually(() => expect(own.messages.map((m) => m.event.id)).toContain(event.id));
    s.app.ctx.events.publish([fakeEvent("state.updated", f.project.id, {})]);
    await eventually(() => expect(eventTypes(project)).toContain("state.updated"));
    expect(eventTypes(project)).not.toContain("notification.created");
    expect(someoneElse.messages).toEqual([]);
  });

  it("broadcasts to one user's tabs", async () => {
    const a = tab(s.url, f.w.member).open(userChannelName(f.w.member.id));
    const b = tab(s.url, f.w.member).open(userChannelName(f.w.member.id));
    await synced(a);
    await synced(b);
    const event = fakeEvent("notification.updated", null, { receiver: f.w.member.id });
    s.app.ctx.live.broadcastToUser(f.w.member.id, { type: "event", event });
    await eventually(() => {
      expect(a.messages.map((m) => m.event.id)).toContain(event.id);
      expect(b.messages.map((m) => m.event.id)).toContain(event.id);
    });
  });
});

describe("descriptions", () => {
  it("emits issue.updated with description_html once a live edit is stored", async () => {
    const item = await createIssue(s, f.w.member, f.project.url, { name: "Live desc", description_html: "<p>One</p>" });
    const doc = tab(s.url, f.w.member).open(issueDocumentName(item.id));
    await synced(doc);
    appendParagraph(doc.doc, "Two");
    await synced(doc);
    const event = await eventually(() => {
      const found = f.events.find(
        (e) =>
          e.type === "issue.updated" &&
          e.entity_id === item.id &&
          e.client_mutation_id?.startsWith(LIVE_MUTATION_PREFIX),
      );
      if (!found) throw new Error("not stored yet");
      return found;
    });
    expect(event.actor_id).toBe(f.w.member.id);
    expect(event.data).toMatchObject({
      description_html: "<p>One</p><p>Two</p>",
      changed_fields: ["description_html"],
    });
    const [row] = await s.db.select().from(issues).where(eq(issues.id, item.id));
    expect(row?.descriptionStripped).toBe("One Two");
    expect(row?.updatedById).toBe(f.w.member.id);
  });

  it("shows a description PATCHed over REST in the open editors, once, and keeps the document", async () => {
    const item = await createIssue(s, f.w.member, f.project.url, { name: "REST desc", description_html: "<p>Old</p>" });
    const name = issueDocumentName(item.id);
    const a = tab(s.url, f.w.member).open(name);
    const b = tab(s.url, f.w.admin).open(name);
    await synced(a);
    await synced(b);
    appendParagraph(a.doc, "Typed live");
    await synced(a);
    await eventually(() => expect(bodyText(b.doc)).toBe("Old\nTyped live"));

    const res = await client(s.app, f.w.admin).patch(`${f.project.url}/issues/${item.id}/`, {
      description_html: "<p>Replaced</p><p>Typed live</p>",
    });
    expect(res.statusCode, res.body).toBe(200);
    await eventually(() => {
      expect(bodyText(a.doc)).toBe("Replaced\nTyped live");
      expect(bodyText(b.doc)).toBe("Replaced\nTyped live");
    });
    // The state is back (same document, so the open copies stay valid) and the log is folded.
    const row = await eventually(async () => {
      const [found] = await s.db.select().from(issues).where(eq(issues.id, item.id));
      if (!found?.descriptionBinary) throw new Error("state not stored yet");
      return found;
    });
    expect(row.descriptionHtml).toBe("<p>Replaced</p><p>Typed live</p>");
    await eventually(async () => expect(await logRows(s, name)).toEqual([]));

    // Editing goes on normally afterwards.
    appendParagraph(b.doc, "After");
    await synced(b);
    await eventually(() => expect(bodyText(a.doc)).toBe("Replaced\nTyped live\nAfter"));
  });
});

describe("pages", () => {
  it("shows a page body PATCHed over REST in the open editors, merged with live edits", async () => {
    const page = await insertPage(s, {
      workspaceId: f.w.workspaceId,
      projectIds: [f.project.id],
      ownerId: f.w.admin.id,
      descriptionHtml: "<p>First</p>",
    });
    const name = pageDocumentName(page.id);
    const doc = tab(s.url, f.w.member).open(name);
    await synced(doc);
    appendParagraph(doc.doc, "Live line");
    await synced(doc);
    const res = await client(s.app, f.w.admin).patch(`${f.project.url}/pages/${page.id}/`, {
      description_html: "<p>First</p><p>Live line</p><p>From REST</p>",
    });
    expect(res.statusCode, res.body).toBe(200);
    await eventually(() => expect(bodyText(doc.doc)).toBe("First\nLive line\nFrom REST"));
    for (const t of tabs.splice(0)) t.destroy();
    await eventually(async () => {
      const [row] = await s.db.select().from(pages).where(eq(pages.id, page.id));
      expect(row?.descriptionHtml).toBe("<p>First</p><p>Live line</p><p>From REST</p>");
    });
  });
});

function fakeEvent(type: DomainEvent["type"], projectId: string | null, data: Record<string, unknown>): DomainEvent {
  return {
    id: randomUUID(),
    type,
    workspace_id: f.w.workspaceId,
    project_id: projectId,
    entity_id: randomUUID(),
    actor_id: null,
    client_mutation_id: null,
    occurred_at: new Date().toISOString(),
    data,
  };
}
