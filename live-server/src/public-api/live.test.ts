/** A change made through the public API reaches a live board (the project channel) like one made in the app. */
import { type DomainEvent, projectChannelName } from "@tideline/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, type LiveServer, openTab, startLiveServer, synced, type Tab } from "../live/test-support.ts";
import { createFixture, type Fixture } from "../routes/issues/test-support.ts";
import { tokenFor, v1 } from "./test-support.ts";

let s: LiveServer;
let f: Fixture;
const tabs: Tab[] = [];

beforeAll(async () => {
  s = await startLiveServer();
  f = await createFixture(s);
});

afterAll(async () => {
  for (const t of tabs) t.destroy();
  await s.close();
});

describe("public API changes on live screens", () => {
  it("a member's open board gets issue.created, issue.updated and comment.created made with an API key", async () => {
    const tab = openTab(s.url, f.w.member);
    tabs.push(tab);
    const board = tab.open(projectChannelName(f.project.id));
    await synced(board);
    const key = (await tokenFor(s, f.w.admin, f.w.workspaceId)).key;
    const base = `/api/v1/workspaces/${f.w.slug}/projects/${f.project.id}/issues`;
    const made = await v1(s.app, key).post(`${base}/`, { name: "Made by a script" });
    expect(made.statusCode).toBe(201);
    const id = made.json().id;
    expect((await v1(s.app, key).patch(`${base}/${id}/`, { priority: "high" })).statusCode).toBe(200);
    expect((await v1(s.app, key).post(`${base}/${id}/comments/`, { comment_html: "<p>Hello</p>" })).statusCode).toBe(
      201,
    );
    const seen = (type: string) =>
      board.messages.filter((m: { event: DomainEvent }) => m.event.type === type && m.event.data.id !== undefined);
    await eventually(() => {
      expect(seen("issue.created").some((m) => m.event.entity_id === id)).toBe(true);
      expect(seen("issue.updated").some((m) => m.event.entity_id === id && m.event.data.priority === "high")).toBe(
        true,
      );
      expect(board.messages.some((m) => m.event.type === "comment.created")).toBe(true);
    });
    const created = seen("issue.created").find((m) => m.event.entity_id === id);
    expect(created?.event.actor_id).toBe(f.w.admin.id);
  });
});
