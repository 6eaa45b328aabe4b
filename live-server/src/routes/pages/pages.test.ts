import { PAGE_ACCESS } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as Y from "yjs";
import { client, type TestApp } from "../../../test/harness.ts";
import { pageProjects } from "../../db/schema.ts";
import { onPageContentChange } from "./document.ts";
import {
  countPages,
  createPage,
  createProject,
  docOf,
  fetchState,
  type PageJson,
  pageRow,
  pagesUrl,
  pageUrl,
  paragraphs,
  recordEvents,
  startPagesWorld,
  type Team,
  team,
  type World,
} from "./test-support.ts";

let t: TestApp;
let w: World;
let p: Team;
beforeAll(async () => {
  ({ t, w, p } = await startPagesWorld());
});
afterAll(() => t.close());

describe("creating pages", () => {
  it("creates a page owned by the caller in this project, with its body as HTML and Yjs state", async () => {
    const events = recordEvents(t);
    const res = await client(t.app, w.member).post(pagesUrl(p), {
      name: "  Specs  ",
      access: PAGE_ACCESS.public,
      description_html: "<p>Hello <strong>world</strong></p><script>alert(1)</script>",
      logo_props: { in_use: "emoji", emoji: { value: "128640" } },
      color: "#3f76ff",
    });
    expect(res.statusCode, res.body).toBe(201);
    const page = res.json() as PageJson;
    expect(page).toMatchObject({
      name: "Specs",
      access: 0,
      owned_by: w.member.id,
      project_ids: [p.id],
      is_locked: false,
      archived_at: null,
      is_favorite: false,
      parent: null,
      color: "#3f76ff",
      description_html: "<p>Hello <strong>world</strong></p>",
      logo_props: { in_use: "emoji", emoji: { value: "128640" } },
    });
    const row = await pageRow(t, page.id);
    expect(row?.descriptionStripped).toBe("Hello world");
    expect(row?.descriptionBinary?.length).toBeGreaterThan(0);
    expect(row?.createdById).toBe(w.member.id);
    const created = events.filter((e) => e.type === "page.created" && e.entity_id === page.id);
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ project_id: p.id, workspace_id: w.workspaceId, actor_id: w.member.id });
    expect(created[0]?.data).toMatchObject({ name: "Specs", access: 0 });
  });

  it("accepts an empty body: an untitled public page", async () => {
    const res = await client(t.app, w.admin).post(pagesUrl(p), {});
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ name: "", access: 0, description_html: "<p></p>", owned_by: w.admin.id });
  });

  it("nests a page under a parent of the same project", async () => {
    const parent = await createPage(t, w.member, p);
    const child = await createPage(t, w.member, p, { parent: parent.id });
    expect(child.parent).toBe(parent.id);
  });

  it("refuses guests (403), anonymous (401), other workspaces and non-members (404), storing nothing", async () => {
    const before = await countPages(t, w.workspaceId);
    expect((await client(t.app, w.guest).post(pagesUrl(p), { name: "x" })).statusCode).toBe(403);
    expect((await client(t.app).post(pagesUrl(p), { name: "x" })).statusCode).toBe(401);
    expect((await client(t.app, w.stranger).post(pagesUrl(p), { name: "x" })).statusCode).toBe(404);
    expect((await client(t.app, w.outsider).post(pagesUrl(p), { name: "x" })).statusCode).toBe(404);
    const foreign = await createProject(t, w.stranger, w.otherSlug);
    const viaMine = `/api/workspaces/${w.slug}/projects/${foreign.id}/pages/`;
    expect((await client(t.app, w.admin).post(viaMine, { name: "x" })).statusCode).toBe(404);
    expect(await countPages(t, w.workspaceId)).toBe(before);
  });

  it("refuses bad input (400) and stores nothing", async () => {
    const before = await countPages(t, w.workspaceId);
    const other = await team(t, w);
    const foreignParent = await createPage(t, w.admin, other);
    const secret = await createPage(t, w.admin, p, { access: PAGE_ACCESS.private });
    for (const body of [
      { name: "x".repeat(256) },
      { access: 2 },
      { access: "public" },
      { name: 5 },
      { color: "red" },
      { logo_props: { in_use: "gif" } },
      { parent: "nope" },
      { parent: foreignParent.id },
      { parent: secret.id },
      { description_html: 5 },
    ]) {
      const res = await client(t.app, w.member).post(pagesUrl(p), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await countPages(t, w.workspaceId)).toBe(before + 2);
  });
});

describe("listing pages", () => {
  it("lists public pages and my private ones; type and search filter; archived ones apart", async () => {
    const q = await team(t, w);
    const pub = await createPage(t, w.member, q, { name: "Roadmap public" });
    const mine = await createPage(t, w.member, q, { name: "My notes", access: PAGE_ACCESS.private });
    const theirs = await createPage(t, w.admin, q, { name: "Admin notes", access: PAGE_ACCESS.private });
    const old = await createPage(t, w.member, q, { name: "Old roadmap" });
    expect((await client(t.app, w.member).post(`${pageUrl(q, old.id)}archive/`)).statusCode).toBe(200);

    const ids = async (query = "", user = w.member) => {
      const res = await client(t.app, user).get(`${pagesUrl(q)}${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as PageJson[]).map((x) => x.id).sort();
    };
    expect(await ids()).toEqual([pub.id, mine.id, old.id].sort());
    expect(await ids("?type=public")).toEqual([pub.id]);
    expect(await ids("?type=private")).toEqual([mine.id]);
    expect(await ids("?type=archived")).toEqual([old.id]);
    expect(await ids("?search=ROADMAP")).toEqual([pub.id, old.id].sort());
    expect(await ids("?search=%25")).toEqual([]);
    // The guest reads public pages; the admin does not see the member's private page.
    expect(await ids("", w.guest)).toEqual([pub.id, old.id].sort());
    expect(await ids("?type=private", w.admin)).toEqual([theirs.id]);

    const archived = await client(t.app, w.member).get(`${q.url}/archived-pages/`);
    expect(archived.statusCode).toBe(200);
    expect((archived.json() as PageJson[]).map((x) => x.id)).toEqual([old.id]);
    // The list carries no body.
    const list = (await client(t.app, w.member).get(pagesUrl(q))).json() as Record<string, unknown>[];
    expect(list[0]).not.toHaveProperty("description_html");
  });

  it("answers 401, 404 for another workspace or a non-member, 400 for a bad type", async () => {
    expect((await client(t.app).get(pagesUrl(p))).statusCode).toBe(401);
    expect((await client(t.app, w.stranger).get(pagesUrl(p))).statusCode).toBe(404);
    expect((await client(t.app, w.outsider).get(pagesUrl(p))).statusCode).toBe(404);
    expect((await client(t.app).get(`${p.url}/archived-pages/`)).statusCode).toBe(401);
    expect((await client(t.app, w.stranger).get(`${p.url}/archived-pages/`)).statusCode).toBe(404);
    expect((await client(t.app, w.member).get(`${pagesUrl(p)}?type=shared`)).statusCode).toBe(400);
  });
});

describe("reading one page", () => {
  it("answers the page with its body; private pages of others are 404, even for admins", async () => {
    const page = await createPage(t, w.member, p, { description_html: "<p>Body</p>" });
    const res = await client(t.app, w.guest).get(pageUrl(p, page.id));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: page.id, description_html: "<p>Body</p>" });

    const secret = await createPage(t, w.member, p, { access: PAGE_ACCESS.private });
    expect((await client(t.app, w.member).get(pageUrl(p, secret.id))).statusCode).toBe(200);
    for (const user of [w.admin, w.guest]) {
      const denied = await client(t.app, user).get(pageUrl(p, secret.id));
      expect(denied.statusCode).toBe(404);
      expect(denied.json().error).toBe("Page not found");
    }
  });

  it("answers 401, and 404 for unknown ids, another project's page and another workspace", async () => {
    const page = await createPage(t, w.member, p);
    const other = await team(t, w);
    expect((await client(t.app).get(pageUrl(p, page.id))).statusCode).toBe(401);
    expect((await client(t.app, w.member).get(pageUrl(p, "nope"))).statusCode).toBe(404);
    expect((await client(t.app, w.member).get(pageUrl(p, crypto.randomUUID()))).statusCode).toBe(404);
    expect((await client(t.app, w.admin).get(pageUrl(other, page.id))).statusCode).toBe(404);
    expect((await client(t.app, w.stranger).get(pageUrl(p, page.id))).statusCode).toBe(404);
    const foreign = await createProject(t, w.stranger, w.otherSlug);
    const foreignUrl = { url: `/api/workspaces/${w.otherSlug}/projects/${foreign.id}` };
    const foreignPage = await createPage(t, w.stranger, foreignUrl);
    expect((await client(t.app, w.admin).get(pageUrl(p, foreignPage.id))).statusCode).toBe(404);
  });
});

describe("changing a page", () => {
  it("lets members change name, logo, colour, view settings and parent, and emits page.updated", async () => {
    const page = await createPage(t, w.admin, p);
    const parent = await createPage(t, w.admin, p);
    const events = recordEvents(t);
    const res = await client(t.app, w.member).patch(pageUrl(p, page.id), {
      name: "Renamed",
      logo_props: { in_use: "icon", icon: { name: "book", color: "#fff" } },
      color: "#abcdef",
      view_props: { full_width: true },
      parent: parent.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      name: "Renamed",
      color: "#abcdef",
      view_props: { full_width: true },
      parent: parent.id,
      owned_by: w.admin.id,
    });
    expect((await pageRow(t, page.id))?.updatedById).toBe(w.member.id);
    const updated = events.filter((e) => e.type === "page.updated" && e.entity_id === page.id);
    expect(updated).toHaveLength(1);
    expect(updated[0]?.data.changed_fields).toEqual(["name", "logo_props", "color", "view_props", "parent"]);
  });

  it("sets the body from HTML as a Yjs change that live copies converge with", async () => {
    const page = await createPage(t, w.member, p, { description_html: "<p>one</p><p>keep</p>" });
    const editor = docOf(await fetchState(t, w.member, pageUrl(p, page.id)));
    const seen: Uint8Array[] = [];
    const stop = onPageContentChange(t.app.ctx.events, (pageId, update) => {
      if (pageId === page.id) seen.push(update);
    });
    const res = await client(t.app, w.member).patch(pageUrl(p, page.id), {
      description_html: "<p>two</p><p>keep</p>",
    });
    stop();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().description_html).toBe("<p>two</p><p>keep</p>");
    expect((await pageRow(t, page.id))?.descriptionStripped).toBe("two keep");
    // The live layer gets the diff; an editor holding the old body ends up with the new one once.
    expect(seen).toHaveLength(1);
    for (const update of seen) Y.applyUpdate(editor, update);
    expect(paragraphs(editor)).toEqual(["two", "keep"]);
  });

  it("refuses guests on public pages and the owner's private page for others (403/404)", async () => {
    const page = await createPage(t, w.member, p, { name: "Kept" });
    expect((await client(t.app, w.guest).patch(pageUrl(p, page.id), { name: "x" })).statusCode).toBe(403);
    const secret = await createPage(t, w.member, p, { access: PAGE_ACCESS.private, name: "Kept" });
    expect((await client(t.app, w.admin).patch(pageUrl(p, secret.id), { name: "x" })).statusCode).toBe(404);
    expect((await pageRow(t, page.id))?.name).toBe("Kept");
    expect((await pageRow(t, secret.id))?.name).toBe("Kept");
  });

  it("refuses anonymous (401), another workspace (404), bad input and loops (400), changing nothing", async () => {
    const page = await createPage(t, w.member, p, { name: "Kept" });
    const child = await createPage(t, w.member, p, { parent: page.id });
    expect((await client(t.app).patch(pageUrl(p, page.id), { name: "x" })).statusCode).toBe(401);
    expect((await client(t.app, w.stranger).patch(pageUrl(p, page.id), { name: "x" })).statusCode).toBe(404);
    for (const body of [
      { name: "x".repeat(256) },
      { name: ["x"] },
      { color: "blue" },
      { view_props: { nested: { a: 1 } } },
      { parent: page.id },
      { parent: child.id },
      { parent: crypto.randomUUID() },
    ]) {
      const res = await client(t.app, w.member).patch(pageUrl(p, page.id), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    // Keys PATCH does not know (access has its own route, the owner never changes) are ignored.
    const ignored = await client(t.app, w.member).patch(pageUrl(p, page.id), { access: 1, owned_by: w.admin.id });
    expect(ignored.statusCode).toBe(200);
    const row = await pageRow(t, page.id);
    expect(row).toMatchObject({ name: "Kept", access: 0, color: "", parentId: null, ownedById: w.member.id });
  });
});

describe("deleting a page", () => {
  it("needs the page archived first (400), then deletes it for good (204)", async () => {
    const page = await createPage(t, w.member, p);
    const child = await createPage(t, w.member, p, { parent: page.id });
    const first = await client(t.app, w.member).delete(pageUrl(p, page.id));
    expect(first.statusCode).toBe(400);
    expect(first.json().code).toBe("PAGE_NOT_ARCHIVED");
    expect(await pageRow(t, page.id)).toBeDefined();

    expect((await client(t.app, w.member).post(`${pageUrl(p, page.id)}archive/`)).statusCode).toBe(200);
    // Restoring the child alone brings it back at the top level, since its parent stays archived.
    expect((await client(t.app, w.member).delete(`${pageUrl(p, child.id)}archive/`)).statusCode).toBe(200);
    const events = recordEvents(t);
    expect((await client(t.app, w.member).delete(pageUrl(p, page.id))).statusCode).toBe(204);
    expect(await pageRow(t, page.id)).toBeUndefined();
    expect(await t.db.select().from(pageProjects).where(eq(pageProjects.pageId, page.id))).toEqual([]);
    expect((await pageRow(t, child.id))?.parentId).toBeNull();
    expect(events.filter((e) => e.type === "page.deleted" && e.entity_id === page.id)).toHaveLength(1);
    expect((await client(t.app, w.member).get(pageUrl(p, page.id))).statusCode).toBe(404);
  });

  it("lets a project admin delete someone else's archived page, not a member (403)", async () => {
    const page = await createPage(t, w.member, p);
    expect((await client(t.app, w.admin).post(`${pageUrl(p, page.id)}archive/`)).statusCode).toBe(200);
    const mine = await createPage(t, w.admin, p);
    expect((await client(t.app, w.admin).post(`${pageUrl(p, mine.id)}archive/`)).statusCode).toBe(200);
    expect((await client(t.app, w.member).delete(pageUrl(p, mine.id))).statusCode).toBe(403);
    expect((await client(t.app, w.guest).delete(pageUrl(p, mine.id))).statusCode).toBe(403);
    expect(await pageRow(t, mine.id)).toBeDefined();
    expect((await client(t.app, w.admin).delete(pageUrl(p, page.id))).statusCode).toBe(204);
  });

  it("answers 401 and 404 (another workspace, private page of another user)", async () => {
    const secret = await createPage(t, w.member, p, { access: PAGE_ACCESS.private });
    await client(t.app, w.member).post(`${pageUrl(p, secret.id)}archive/`);
    expect((await client(t.app).delete(pageUrl(p, secret.id))).statusCode).toBe(401);
    expect((await client(t.app, w.stranger).delete(pageUrl(p, secret.id))).statusCode).toBe(404);
    expect((await client(t.app, w.admin).delete(pageUrl(p, secret.id))).statusCode).toBe(404);
    expect(await pageRow(t, secret.id)).toBeDefined();
  });
});
