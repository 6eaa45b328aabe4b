/**
 * Export events on the workspace channel: an admin's open settings screen hears an export move
 * (export.created, export.updated up to completed); a member of the workspace hears none of it
 * (exports are admins' business, product-domain §6) — proven by a public workspace view created
 * after, which the member does hear, with no export event before it.
 */
import { type DomainEvent, workspaceChannelName } from "@tideline/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../../../test/harness.ts";
import { eventually, type LiveServer, openTab, startLiveServer, synced, type Tab } from "../../live/test-support.ts";
import { createFixture, createIssue, type Fixture } from "../issues/test-support.ts";

let s: LiveServer;
let f: Fixture;
const tabs: Tab[] = [];

beforeAll(async () => {
  s = await startLiveServer();
  f = await createFixture(s);
  await createIssue(s, f.w.admin, f.project.url, { name: "Exported" });
});

afterAll(async () => {
  for (const t of tabs) t.destroy();
  await s.close();
});

const types = (doc: { messages: { event: DomainEvent }[] }) => doc.messages.map((m) => m.event.type);

describe("export events", () => {
  it("reach the workspace's admins only", async () => {
    const adminTab = openTab(s.url, f.w.admin);
    const memberTab = openTab(s.url, f.w.member);
    tabs.push(adminTab, memberTab);
    const channel = workspaceChannelName(f.w.workspaceId);
    const admin = adminTab.open(channel);
    const member = memberTab.open(channel);
    await synced(admin);
    await synced(member);

    const ws = `/api/workspaces/${f.w.slug}`;
    const started = await client(s.app, f.w.admin).post(`${ws}/export-issues/`, {
      provider: "csv",
      project: [f.project.id],
      multiple: false,
    });
    expect(started.statusCode, started.body).toBeLessThan(300);
    await eventually(() => {
      expect(types(admin)).toContain("export.created");
      const done = admin.messages.some(
        (m) => m.event.type === "export.updated" && (m.event.data as { status?: string }).status === "completed",
      );
      expect(done).toBe(true);
    });

    const view = await client(s.app, f.w.admin).post(`${ws}/views/`, { name: "After the export", access: 1 });
    expect(view.statusCode, view.body).toBe(201);
    await eventually(() => expect(types(member)).toContain("view.created"));
    expect(types(member).filter((t) => t.startsWith("export."))).toEqual([]);
  });
});
