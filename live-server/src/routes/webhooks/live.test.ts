/**
 * Webhook events on the workspace channel: another admin's open settings screen hears a webhook
 * made, changed (its secret regenerated too) and deleted — never the secret itself; a member of
 * the workspace hears none of it (webhooks are admins' business, product-domain §6), proven by a
 * public workspace view created after, which the member does hear, with no webhook event before.
 */
import { type DomainEvent, workspaceChannelName } from "@tideline/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../../../test/harness.ts";
import { eventually, type LiveServer, openTab, startLiveServer, synced, type Tab } from "../../live/test-support.ts";
import { createWorld, type World } from "../projects/test-support.ts";

let s: LiveServer;
let w: World;
const tabs: Tab[] = [];

beforeAll(async () => {
  s = await startLiveServer({ WEBHOOK_ALLOW_PRIVATE: "true" });
  w = await createWorld(s);
});

afterAll(async () => {
  for (const t of tabs) t.destroy();
  await s.close();
});

const types = (doc: { messages: { event: DomainEvent }[] }) => doc.messages.map((m) => m.event.type);

describe("webhook events", () => {
  it("reach the workspace's admins without the secret, and no member", async () => {
    const adminTab = openTab(s.url, w.admin);
    const memberTab = openTab(s.url, w.member);
    tabs.push(adminTab, memberTab);
    const channel = workspaceChannelName(w.workspaceId);
    const admin = adminTab.open(channel);
    const member = memberTab.open(channel);
    await synced(admin);
    await synced(member);

    const hooks = `/api/workspaces/${w.slug}/webhooks/`;
    const created = await client(s.app, w.admin).post(hooks, { url: "http://127.0.0.1:9/hook", issue: true });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    expect((await client(s.app, w.admin).patch(`${hooks}${id}/`, { cycle: true })).statusCode).toBe(200);
    expect((await client(s.app, w.admin).post(`${hooks}${id}/regenerate/`, {})).statusCode).toBeLessThan(300);
    expect((await client(s.app, w.admin).delete(`${hooks}${id}/`)).statusCode).toBe(204);

    await eventually(() =>
      expect(types(admin).filter((t) => t.startsWith("webhook."))).toEqual([
        "webhook.created",
        "webhook.updated",
        "webhook.updated",
        "webhook.deleted",
      ]),
    );
    const events = admin.messages.map((m) => m.event).filter((e) => e.type.startsWith("webhook."));
    expect(events[0]?.data).toMatchObject({ id, url: "http://127.0.0.1:9/hook", issue: true });
    expect(events[1]?.data).toMatchObject({ id, cycle: true });
    for (const e of events) expect(JSON.stringify(e.data)).not.toContain("secret");

    const view = await client(s.app, w.admin).post(`/api/workspaces/${w.slug}/views/`, {
      name: "After the webhooks",
      access: 1,
    });
    expect(view.statusCode, view.body).toBe(201);
    await eventually(() => expect(types(member)).toContain("view.created"));
    expect(types(member).filter((t) => t.startsWith("webhook."))).toEqual([]);
  });
});
