/**
 * Live: a member with the project channel open sees another member's view appear, change and
 * go (view.created / view.updated / view.deleted through a real Hocuspocus provider on
 * project.{id}); a private view reaches the channel as its id, access and owner only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../../../test/harness.ts";
import { type LiveProject, startLiveProject } from "../../../test/live-project.ts";
import { eventually } from "../../live/test-support.ts";

let live: LiveProject;
beforeAll(async () => {
  live = await startLiveProject();
});
afterAll(() => live.close());

describe("views over the project channel", () => {
  it("created, changed, made private and deleted by another member", async () => {
    const { s, f } = live;
    const channel = await live.openProjectChannel(f.w.member);
    const seen = (type: string, id: string) =>
      eventually(() => {
        const found = channel.messages.filter((m) => m.event.type === type && m.event.entity_id === id);
        if (!found.length) throw new Error(`no ${type} yet`);
        return found[found.length - 1] as (typeof channel.messages)[number];
      });

    const admin = client(s.app, f.w.admin);
    const view = (
      await admin.post(`${f.project.url}/views/`, { name: "Shared", filters: { priority: ["high"] } })
    ).json();
    const created = await seen("view.created", view.id);
    expect(created.event).toMatchObject({
      project_id: f.project.id,
      actor_id: f.w.admin.id,
      data: { id: view.id, name: "Shared", filters: { priority: ["high"] }, access: 1 },
    });
    expect(created.event.data).not.toHaveProperty("is_favorite");

    await admin.post(`${f.project.url}/views/${view.id}/access/`, { access: 0 });
    const hidden = await seen("view.updated", view.id);
    expect(hidden.event.data).toEqual({
      id: view.id,
      workspace_id: f.w.workspaceId,
      project_id: f.project.id,
      access: 0,
      owned_by: f.w.admin.id,
      updated_at: expect.any(String),
    });

    await admin.delete(`${f.project.url}/views/${view.id}/`);
    const deleted = await seen("view.deleted", view.id);
    expect(deleted.event.data).not.toHaveProperty("name");
  });
});
