import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../../test/harness.ts";
import { activitiesOf, countIssues, createFixture, eventsOf, type Fixture, issueRow } from "./test-support.ts";

let t: TestApp;
let f: Fixture;
beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
});
afterAll(() => t.close());

const drafts = () => `${f.project.url}/issue-drafts/`;
const wsDrafts = () => `/api/workspaces/${f.w.slug}/draft-issues/`;

describe("project drafts", () => {
  it("creates a numbered draft that stays out of lists, history and events, then publishes it", async () => {
    const before = f.events.length;
    const res = await client(t.app, f.w.member).post(drafts(), { name: "Half an idea", priority: "low" });
    expect(res.statusCode, res.body).toBe(201);
    const draft = res.json();
    expect(draft).toMatchObject({ is_draft: true, priority: "low", name: "Half an idea" });
    expect(draft.sequence_id).toBeGreaterThan(0);
    expect(f.events.length).toBe(before);
    expect(await activitiesOf(t, draft.id)).toHaveLength(0);
    const list = (await client(t.app, f.w.member).get(`${f.project.url}/issues/`)).json();
    expect(list.results.map((i: { id: string }) => i.id)).not.toContain(draft.id);
    expect((await client(t.app, f.w.member).get(`${f.project.url}/issues/${draft.id}/`)).statusCode).toBe(404);

    const mine = (await client(t.app, f.w.member).get(drafts())).json();
    expect(mine.results.map((i: { id: string }) => i.id)).toEqual([draft.id]);
    expect(mine.results[0].description_html).toBe("<p></p>");
    const others = (await client(t.app, f.w.admin).get(drafts())).json();
    expect(others.results).toEqual([]);
    expect((await client(t.app, f.w.admin).get(`${drafts()}${draft.id}/`)).statusCode).toBe(404);

    const patched = await client(t.app, f.w.member).patch(`${drafts()}${draft.id}/`, { name: "A whole idea" });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ name: "A whole idea", is_draft: true });
    expect(f.events.length).toBe(before);

    const published = await client(t.app, f.w.member, { "x-client-mutation-id": "m-pub" }).patch(
      `${drafts()}${draft.id}/`,
      { is_draft: false, priority: "high" },
    );
    expect(published.statusCode, published.body).toBe(200);
    expect(published.json()).toMatchObject({ is_draft: false, priority: "high", sequence_id: draft.sequence_id });
    expect(eventsOf(f, "issue.created", draft.id)[0]?.client_mutation_id).toBe("m-pub");
    expect((await activitiesOf(t, draft.id)).map((a) => a.verb)).toEqual(["created"]);
    expect((await client(t.app, f.w.member).get(`${drafts()}${draft.id}/`)).statusCode).toBe(404);
  });

  it("deletes a draft for good", async () => {
    const draft = (await client(t.app, f.w.member).post(drafts(), { name: "Scrap" })).json();
    expect((await client(t.app, f.w.admin).delete(`${drafts()}${draft.id}/`)).statusCode).toBe(404);
    expect((await client(t.app, f.w.member).delete(`${drafts()}${draft.id}/`)).statusCode).toBe(204);
    expect(await issueRow(t, draft.id)).toBeUndefined();
  });

  it("answers 401, 403 to guests, 404 elsewhere, 400 on bad input with nothing stored", async () => {
    const count = await countIssues(t, f.project.id);
    expect((await client(t.app, null).post(drafts(), { name: "x" })).statusCode).toBe(401);
    expect((await client(t.app, f.w.guest).post(drafts(), { name: "x" })).statusCode).toBe(403);
    expect((await client(t.app, f.w.stranger).post(drafts(), { name: "x" })).statusCode).toBe(404);
    expect((await client(t.app, f.w.member).post(drafts(), {})).statusCode).toBe(400);
    expect((await client(t.app, f.w.member).post(drafts(), { name: "x", priority: "soon" })).statusCode).toBe(400);
    expect(await countIssues(t, f.project.id)).toBe(count);
    const draft = (await client(t.app, f.w.member).post(drafts(), { name: "Keep" })).json();
    expect((await client(t.app, f.w.member).patch(`${drafts()}${draft.id}/`, { is_draft: true })).statusCode).toBe(400);
    expect((await client(t.app, f.w.member).patch(`${drafts()}${draft.id}/`, { name: "" })).statusCode).toBe(400);
    expect((await issueRow(t, draft.id))?.name).toBe("Keep");
  });
});

describe("workspace drafts", () => {
  it("creates with project_id, lists the caller's drafts across projects, edits and publishes", async () => {
    const res = await client(t.app, f.w.member).post(wsDrafts(), {
      name: "From the sidebar",
      project_id: f.project.id,
    });
    expect(res.statusCode, res.body).toBe(201);
    const draft = res.json();
    expect(draft.project_id).toBe(f.project.id);
    const list = (await client(t.app, f.w.member).get(`${wsDrafts()}?per_page=50`)).json();
    expect(list.results.map((i: { id: string }) => i.id)).toContain(draft.id);
    expect((await client(t.app, f.w.member).get(`${wsDrafts()}${draft.id}/`)).json().name).toBe("From the sidebar");
    const edit = await client(t.app, f.w.member).patch(`${wsDrafts()}${draft.id}/`, { target_date: "2026-09-01" });
    expect(edit.json().target_date).toBe("2026-09-01");
    const publish = await client(t.app, f.w.member).post(`/api/workspaces/${f.w.slug}/draft-to-issue/${draft.id}/`);
    expect(publish.statusCode, publish.body).toBe(200);
    expect(publish.json().is_draft).toBe(false);
    expect(eventsOf(f, "issue.created", draft.id)).toHaveLength(1);
    expect(
      (await client(t.app, f.w.member).post(`/api/workspaces/${f.w.slug}/draft-to-issue/${draft.id}/`)).statusCode,
    ).toBe(404);
  });

  it("keeps drafts private and checks the project", async () => {
    const draft = (await client(t.app, f.w.member).post(wsDrafts(), { name: "Mine", project_id: f.project.id })).json();
    expect((await client(t.app, f.w.admin).get(`${wsDrafts()}${draft.id}/`)).statusCode).toBe(404);
    expect((await client(t.app, f.w.admin).delete(`${wsDrafts()}${draft.id}/`)).statusCode).toBe(404);
    expect((await client(t.app, f.w.stranger).get(`${wsDrafts()}${draft.id}/`)).statusCode).toBe(404);
    expect((await client(t.app, null).get(wsDrafts())).statusCode).toBe(401);
    expect((await client(t.app, f.w.member).post(wsDrafts(), { name: "x", project_id: f.foreign.id })).statusCode).toBe(
      404,
    );
    expect((await client(t.app, f.w.guest).post(wsDrafts(), { name: "x", project_id: f.project.id })).statusCode).toBe(
      403,
    );
    expect((await client(t.app, f.w.member).post(wsDrafts(), { name: "x" })).statusCode).toBe(400);
    expect((await client(t.app, f.w.member).delete(`${wsDrafts()}${draft.id}/`)).statusCode).toBe(204);
  });
});
