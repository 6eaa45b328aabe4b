import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../../test/harness.ts";
import { createFixture, createIssue, type Fixture } from "./test-support.ts";

let t: TestApp;
let f: Fixture;
beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
});
afterAll(() => t.close());

type Hit = { id: string; project__identifier: string; state__group: string };

describe("GET /search-issues/", () => {
  it("finds by name or key and leaves out what a picker must not offer", async () => {
    const top = await createIssue(t, f.w.admin, f.project.url, { name: "Roadmap top" });
    const child = await createIssue(t, f.w.admin, f.project.url, { name: "Roadmap child", parent_id: top.id });
    const grandchild = await createIssue(t, f.w.admin, f.project.url, {
      name: "Roadmap grandchild",
      parent_id: child.id,
    });
    const loose = await createIssue(t, f.w.admin, f.project.url, { name: "Roadmap loose" });
    const search = async (q: string) => {
      const res = await client(t.app, f.w.member).get(`${f.project.url}/search-issues/?${q}`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as Hit[]).map((h) => h.id).sort();
    };
    expect(await search("search=roadmap")).toEqual([top.id, child.id, grandchild.id, loose.id].sort());
    expect(await search(`search=${f.project.identifier}-${loose.sequence_id}`)).toEqual([loose.id]);
    // Parent picker for `child`: not itself, not its grandchild.
    expect(await search(`search=roadmap&parent=true&issue_id=${child.id}`)).toEqual([top.id, loose.id].sort());
    // Sub-issue picker for `child`: items without a parent, not its ancestors.
    expect(await search(`search=roadmap&sub_issue=true&issue_id=${child.id}`)).toEqual([loose.id]);
    expect(await search(`search=roadmap&issue_relation=true&issue_id=${top.id}`)).toEqual(
      [child.id, grandchild.id, loose.id].sort(),
    );
    const [hit] = (await client(t.app, f.w.member).get(`${f.project.url}/search-issues/?search=loose`)).json() as Hit[];
    expect(hit).toMatchObject({ project__identifier: f.project.identifier, state__group: "backlog" });
  });

  it("answers 401, 404 elsewhere, 400 on a bad issue_id", async () => {
    expect((await client(t.app, null).get(`${f.project.url}/search-issues/`)).statusCode).toBe(401);
    expect((await client(t.app, f.w.stranger).get(`${f.project.url}/search-issues/`)).statusCode).toBe(404);
    expect((await client(t.app, f.w.member).get(`${f.project.url}/search-issues/?issue_id=x`)).statusCode).toBe(400);
    const foreign = await createIssue(t, f.w.stranger, f.foreign.url, { name: "Secret plan" });
    const res = await client(t.app, f.w.member).get(`${f.project.url}/search-issues/?search=secret`);
    expect((res.json() as Hit[]).map((h) => h.id)).not.toContain(foreign.id);
  });

  it("shows a restricted guest only their own items", async () => {
    await createIssue(t, f.w.admin, f.project.url, { name: "Unseen by guests" });
    const res = await client(t.app, f.w.guest).get(`${f.project.url}/search-issues/?search=unseen`);
    expect(res.json()).toEqual([]);
  });
});
