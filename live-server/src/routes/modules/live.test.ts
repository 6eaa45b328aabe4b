/**
 * Module events reach a real live provider on project.{id}: module.created / updated /
 * archived / restored / deleted, module.link.*, and issue.updated with module_ids when a work
 * item joins a module.
 */
import type { DomainEvent } from "@tideline/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../../../test/harness.ts";
import { type LiveProject, startLiveProject } from "../../../test/live-project.ts";
import { eventually } from "../../live/test-support.ts";
import { createIssue } from "../issues/test-support.ts";
import { createModule } from "./test-support.ts";

let live: LiveProject;
beforeAll(async () => {
  live = await startLiveProject();
});
afterAll(() => live.close());

const seen = (doc: { messages: { event: DomainEvent }[] }, type: string, entityId: string) =>
  doc.messages.find((m) => m.event.type === type && m.event.entity_id === entityId)?.event;

describe("module events on the project channel", () => {
  it("a member's open project channel sees another member's module changes", async () => {
    const { s, f } = live;
    const channel = await live.openProjectChannel(f.w.member);
    const admin = client(s.app, f.w.admin);

    const m = await createModule(s, f.w.admin, f.project.url, { status: "completed" });
    const created = await eventually(() => {
      const e = seen(channel, "module.created", m.id);
      if (!e) throw new Error("no module.created yet");
      return e;
    });
    expect(created).toMatchObject({ actor_id: f.w.admin.id, data: { id: m.id, name: m.name, total_issues: 0 } });
    expect(created.data).not.toHaveProperty("is_favorite");

    const item = await createIssue(s, f.w.admin, f.project.url);
    expect((await admin.post(`${f.project.url}/modules/${m.id}/issues/`, { issues: [item.id] })).statusCode).toBe(201);
    await eventually(() => {
      const e = channel.messages.find(
        (x) =>
          x.event.type === "issue.updated" &&
          x.event.entity_id === item.id &&
          (x.event.data.module_ids as string[]).includes(m.id),
      );
      if (!e) throw new Error("no issue.updated with module_ids yet");
    });

    expect((await admin.patch(`${f.project.url}/modules/${m.id}/`, { name: "Live rename" })).statusCode).toBe(200);
    const link = await admin.post(`${f.project.url}/modules/${m.id}/module-links/`, {
      url: "https://example.com/spec",
    });
    expect(link.statusCode).toBe(201);
    expect((await admin.post(`${f.project.url}/modules/${m.id}/archive/`)).statusCode).toBe(200);
    expect((await admin.delete(`${f.project.url}/modules/${m.id}/archive/`)).statusCode).toBe(204);
    expect((await admin.delete(`${f.project.url}/modules/${m.id}/`)).statusCode).toBe(204);

    await eventually(() => {
      expect(seen(channel, "module.updated", m.id)?.data.name).toBe("Live rename");
      expect(seen(channel, "module.link.created", link.json().id)?.data.url).toBe("https://example.com/spec");
      expect(seen(channel, "module.archived", m.id)).toBeDefined();
      expect(seen(channel, "module.restored", m.id)).toBeDefined();
      expect(seen(channel, "module.deleted", m.id)).toBeDefined();
    });
  });
});
