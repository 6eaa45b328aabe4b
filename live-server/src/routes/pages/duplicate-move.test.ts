import { PAGE_ACCESS, ROLE } from "@tideline/shared";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, type TestApp } from "../../../test/harness.ts";
import { pageProjects, userFavorites } from "../../db/schema.ts";
import { copyName } from "./service.ts";
import {
  addMember,
  countPages,
  createPage,
  createProject,
  docOf,
  fetchState,
  pageRow,
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

const linksOf = async (pageId: string) =>
  (await t.db.select().from(pageProjects).where(eq(pageProjects.pageId, pageId))).map((l) => l.projectId);

describe("duplicate", () => {
  it("copies name with (copy), body state and HTML, settings; the caller owns the copy", async () => {
    const original = await createPage(t, w.admin, p, {
      name: "Plan",
      description_html: "<h2>Goals</h2><p>Ship it</p>",
      color: "#112233",
      logo_props: { in_use: "emoji", emoji: { value: "1F680" } },
    });
    await client(t.app, w.admin).post(`${pageUrl(p, original.id)}lock/`);
    const events = recordEvents(t);
    const res = await client(t.app, w.member).post(`${pageUrl(p, original.id)}duplicate/`);
    expect(res.statusCode, res.body).toBe(201);
    const copy = res.json();
    expect(copy).toMatchObject({
      name: "Plan (copy)",
      owned_by: w.member.id,
      access: 0,
      is_locked: false,
      archived_at: null,
      project_ids: [p.id],
      color: "#112233",
      logo_props: { in_use: "emoji", emoji: { value: "1F680" } },
      description_html: "<h2>Goals</h2><p>Ship it</p>",
    });
    expect(copy.id).not.toBe(original.id);
    expect(paragraphs(docOf(await fetchState(t, w.member, pageUrl(p, copy.id))))).toEqual(["Goals", "Ship it"]);
    expect(events.filter((e) => e.type === "page.created" && e.entity_id === copy.id)).toHaveLength(1);
    // The copy is its own document: editing it leaves the original alone.
    const row = await pageRow(t, copy.id);
    expect(row?.descriptionBinary).toBeTruthy();
    expect((await pageRow(t, original.id))?.descriptionHtml).toBe("<h2>Goals</h2><p>Ship it</p>");
  });

  it("keeps names within the limit", () => {
    expect(copyName("x".repeat(255))).toHaveLength(255);
    expect(copyName("x".repeat(255)).endsWith(" (copy)")).toBe(true);
  });

  it("refuses guests (403), anonymous (401), others' private pages and other workspaces (404)", async () => {
    const before = await countPages(t, w.workspaceId);
    const page = await createPage(t, w.admin, p);
    const secret = await createPage(t, w.admin, p, { access: PAGE_ACCESS.private });
    expect((await client(t.app, w.guest).post(`${pageUrl(p, page.id)}duplicate/`)).statusCode).toBe(403);
    expect((await client(t.app).post(`${pageUrl(p, page.id)}duplicate/`)).statusCode).toBe(401);
    expect((await client(t.app, w.member).post(`${pageUrl(p, secret.id)}duplicate/`)).statusCode).toBe(404);
    expect((await client(t.app, w.stranger).post(`${pageUrl(p, page.id)}duplicate/`)).statusCode).toBe(404);
    expect(await countPages(t, w.workspaceId)).toBe(before + 2);
  });
});

describe("move", () => {
  it("moves the owner's page to another project where they are a member; favorites follow", async () => {
    const target = await team(t, w);
    const page = await createPage(t, w.member, p, { name: "Wandering" });
    const child = await createPage(t, w.member, p, { parent: page.id });
    await client(t.app, w.member).post(`${p.url}/favorite-pages/${page.id}/`);
    const events = recordEvents(t);
    const res = await client(t.app, w.member).post(`${pageUrl(p, page.id)}move/`, { new_project_id: target.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: page.id, project_ids: [target.id], is_favorite: true });
    expect(await linksOf(page.id)).toEqual([target.id]);
    expect((await pageRow(t, child.id))?.parentId).toBeNull();
    const [favorite] = await t.db
      .select()
      .from(userFavorites)
      .where(and(eq(userFavorites.entityType, "page"), eq(userFavorites.entityIdentifier, page.id)));
    expect(favorite?.projectId).toBe(target.id);
    // Gone from the old project, reachable in the new one.
    expect((await client(t.app, w.member).get(pageUrl(p, page.id))).statusCode).toBe(404);
    expect((await client(t.app, w.member).get(pageUrl(target, page.id))).statusCode).toBe(200);
    const moved = events.filter((e) => e.type === "page.moved" && e.entity_id === page.id);
    expect(moved.map((e) => e.project_id).sort()).toEqual([p.id, target.id].sort());
  });

  it("lets an admin of both projects move someone else's page; refuses an admin of one only (403)", async () => {
    const both = await team(t, w);
    const page = await createPage(t, w.member, p);
    const res = await client(t.app, w.admin).post(`${pageUrl(p, page.id)}move/`, { new_project_id: both.id });
    expect(res.statusCode, res.body).toBe(200);

    // A project where the workspace admin is only a member.
    const elsewhere = await createProject(t, w.member, w.slug);
    await addMember(t, w.member, w.slug, elsewhere.id, w.admin, ROLE.member);
    const other = await createPage(t, w.member, p);
    const refused = await client(t.app, w.admin).post(`${pageUrl(p, other.id)}move/`, { new_project_id: elsewhere.id });
    expect(refused.statusCode).toBe(403);
    expect(await linksOf(other.id)).toEqual([p.id]);
  });

  it("refuses a member moving another's page and an owner who is a guest in the target (403)", async () => {
    const target = await team(t, w);
    const page = await createPage(t, w.admin, p);
    expect(
      (await client(t.app, w.member).post(`${pageUrl(p, page.id)}move/`, { new_project_id: target.id })).statusCode,
    ).toBe(403);
    const guestTarget = await createProject(t, w.admin, w.slug);
    await addMember(t, w.admin, w.slug, guestTarget.id, w.member, ROLE.guest);
    const mine = await createPage(t, w.member, p);
    const res = await client(t.app, w.member).post(`${pageUrl(p, mine.id)}move/`, { new_project_id: guestTarget.id });
    expect(res.statusCode).toBe(403);
    expect(await linksOf(page.id)).toEqual([p.id]);
    expect(await linksOf(mine.id)).toEqual([p.id]);
  });

  it("refuses bad targets (400): missing, same project, not a member, another workspace, not a uuid", async () => {
    const page = await createPage(t, w.member, p);
    const url = `${pageUrl(p, page.id)}move/`;
    const missing = await client(t.app, w.member).post(url, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe("Missing required fields.");
    const notMine = await createProject(t, w.admin, w.slug);
    const foreign = await createProject(t, w.stranger, w.otherSlug);
    for (const id of [p.id, notMine.id, foreign.id, crypto.randomUUID(), "nope"]) {
      const res = await client(t.app, w.member).post(url, { new_project_id: id });
      expect(res.statusCode, id).toBe(400);
    }
    expect(await linksOf(page.id)).toEqual([p.id]);
  });

  it("answers 401 and 404 (another workspace, someone's private page)", async () => {
    const target = await team(t, w);
    const secret = await createPage(t, w.member, p, { access: PAGE_ACCESS.private });
    const url = `${pageUrl(p, secret.id)}move/`;
    expect((await client(t.app).post(url, { new_project_id: target.id })).statusCode).toBe(401);
    expect((await client(t.app, w.admin).post(url, { new_project_id: target.id })).statusCode).toBe(404);
    expect((await client(t.app, w.stranger).post(url, { new_project_id: target.id })).statusCode).toBe(404);
    expect(await linksOf(secret.id)).toEqual([p.id]);
  });
});
