/** Module links: create, list, change, delete; only http(s) URLs (400, nothing stored); access. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../../test/harness.ts";
import { createFixture, eventsOf, type Fixture } from "../issues/test-support.ts";
import { countLinks, createModule } from "./test-support.ts";

let t: TestApp;
let f: Fixture;

beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
});
afterAll(() => t.close());

describe("module links", () => {
  it("adds, lists, changes and deletes a link, with module.link.* events", async () => {
    const m = await createModule(t, f.w.member, f.project.url);
    const url = `${f.project.url}/modules/${m.id}/module-links/`;
    const created = await client(t.app, f.w.member).post(url, { url: "https://example.com/spec", title: "Spec" });
    expect(created.statusCode, created.body).toBe(201);
    const link = created.json();
    expect(link).toMatchObject({ url: "https://example.com/spec", title: "Spec", module: m.id, metadata: {} });
    expect(link.created_by_detail.id).toBe(f.w.member.id);
    expect(eventsOf(f, "module.link.created", link.id)).toHaveLength(1);

    const listed = await client(t.app, f.w.guest).get(url);
    expect(listed.json().map((l: { id: string }) => l.id)).toEqual([link.id]);
    const detail = await client(t.app, f.w.guest).get(`${f.project.url}/modules/${m.id}/`);
    expect(detail.json().link_module.map((l: { id: string }) => l.id)).toEqual([link.id]);

    const patched = await client(t.app, f.w.member).patch(`${url}${link.id}/`, { title: "Design" });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ title: "Design", url: "https://example.com/spec" });
    expect(eventsOf(f, "module.link.updated", link.id)).toHaveLength(1);

    expect((await client(t.app, f.w.member).delete(`${url}${link.id}/`)).statusCode).toBe(204);
    expect(eventsOf(f, "module.link.deleted", link.id)).toHaveLength(1);
    expect(await countLinks(t, m.id)).toBe(0);
    expect((await client(t.app, f.w.member).delete(`${url}${link.id}/`)).statusCode).toBe(404);
  });

  it("refuses anything but an absolute http(s) URL, storing nothing", async () => {
    const m = await createModule(t, f.w.member, f.project.url);
    const url = `${f.project.url}/modules/${m.id}/module-links/`;
    for (const bad of ["javascript:alert(1)", "data:text/html,x", "example.com", "", "ftp://example.com/x"]) {
      const res = await client(t.app, f.w.member).post(url, { url: bad });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().fields.url).toBeDefined();
    }
    expect(await countLinks(t, m.id)).toBe(0);
    const ok = (await client(t.app, f.w.member).post(url, { url: "http://example.com" })).json();
    const bad = await client(t.app, f.w.member).patch(`${url}${ok.id}/`, { url: "javascript:alert(1)" });
    expect(bad.statusCode).toBe(400);
    expect((await client(t.app, f.w.member).get(url)).json()[0].url).toBe("http://example.com");
  });

  it("401 without a session, 403 for guests, 404 across workspaces", async () => {
    const m = await createModule(t, f.w.member, f.project.url);
    const url = `${f.project.url}/modules/${m.id}/module-links/`;
    expect((await client(t.app, null).post(url, { url: "https://a.example" })).statusCode).toBe(401);
    expect((await client(t.app, f.w.guest).post(url, { url: "https://a.example" })).statusCode).toBe(403);
    const theirs = await createModule(t, f.w.stranger, f.foreign.url);
    const theirLink = await client(t.app, f.w.stranger).post(`${f.foreign.url}/modules/${theirs.id}/module-links/`, {
      url: "https://b.example",
    });
    expect(theirLink.statusCode).toBe(201);
    const me = client(t.app, f.w.admin);
    expect((await me.get(`${f.foreign.url}/modules/${theirs.id}/module-links/`)).statusCode).toBe(404);
    expect(
      (await me.post(`${f.project.url}/modules/${theirs.id}/module-links/`, { url: "https://c.example" })).statusCode,
    ).toBe(404);
    expect((await me.patch(`${url}${theirLink.json().id}/`, { title: "x" })).statusCode).toBe(404);
    expect((await me.delete(`${url}${theirLink.json().id}/`)).statusCode).toBe(404);
    expect(await countLinks(t, m.id)).toBe(0);
    expect(await countLinks(t, theirs.id)).toBe(1);
  });
});
