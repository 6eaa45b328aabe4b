/** Intake events on the project channel: triagers get every request live, a guest only their own. */
import { type DomainEvent, projectChannelName } from "@tideline/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../../../test/harness.ts";
import { eventually, type LiveServer, openTab, startLiveServer, synced, type Tab } from "../../live/test-support.ts";
import { createFixture, type Fixture } from "../issues/test-support.ts";

let s: LiveServer;
let f: Fixture;
const tabs: Tab[] = [];

beforeAll(async () => {
  s = await startLiveServer();
  f = await createFixture(s);
  expect((await client(s.app, f.w.admin).patch(`${f.project.url}/`, { inbox_view: true })).statusCode).toBe(200);
});

afterAll(async () => {
  for (const t of tabs) t.destroy();
  await s.close();
});

const names = (doc: { messages: { event: DomainEvent }[] }, type: string) =>
  doc.messages.filter((m) => m.event.type === type).map((m) => (m.event.data.issue as { name: string }).name);

describe("intake events", () => {
  it("a member sees every new request live; a guest only the ones they submitted; accepting announces issue.created", async () => {
    const guestTab = openTab(s.url, f.w.guest);
    const memberTab = openTab(s.url, f.w.member);
    tabs.push(guestTab, memberTab);
    const guest = guestTab.open(projectChannelName(f.project.id));
    const member = memberTab.open(projectChannelName(f.project.id));
    await synced(guest);
    await synced(member);
    const submit = (user: typeof f.w.guest, name: string) =>
      client(s.app, user).post(`${f.project.url}/inbox-issues/`, { source: "IN_APP", issue: { name } });
    expect((await submit(f.w.admin, "Admin's request")).statusCode).toBe(201);
    const own = await submit(f.w.guest, "Guest's request");
    expect(own.statusCode).toBe(201);
    await eventually(() => expect(names(member, "intake.created")).toEqual(["Admin's request", "Guest's request"]));
    await eventually(() => expect(names(guest, "intake.created")).toEqual(["Guest's request"]));
    const accepted = await client(s.app, f.w.admin).patch(`${f.project.url}/inbox-issues/${own.json().id}/`, {
      status: 1,
    });
    expect(accepted.statusCode).toBe(200);
    await eventually(() =>
      expect(
        member.messages.some((m) => m.event.type === "issue.created" && m.event.entity_id === own.json().issue.id),
      ).toBe(true),
    );
    expect(
      member.messages.some((m) => m.event.type === "issue.created" && m.event.data.name === "Admin's request"),
    ).toBe(false);
  });
});
