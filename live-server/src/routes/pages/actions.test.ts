import { PAGE_ACCESS } from "@tideline/shared";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, type TestApp } from "../../../test/harness.ts";
import { pageVersions, userFavorites } from "../../db/schema.ts";
import {
  createPage,
  type PageJson,
  pageRow,
  pagesUrl,
  pageUrl,
  recordEvents,
  startPagesWorld,
  type Team,
  type World,
} from "./test-support.ts";

let t: TestApp;
let w: World;
let p: Team;
beforeAll(async () => {
  ({ t, w, p } = await startPagesWorld());
});
afterAll(() => t.close());

const favoriteUrl = (pageId: string) => `${p.url}/favorite-pages/${pageId}/`;
const favoritesOf = (pageId: string) =>
  t.db
    .select()
    .from(userFavorites)
    .where(and(eq(userFavorites.entityType, "page"), eq(userFavorites.entityIdentifier, pageId)));

describe("access", () => {
  it("lets the owner make a page private and public again; others' favorites go with privacy", async () => {
    const page = await createPage(t, w.member, p);
    expect((await client(t.app, w.admin).post(favoriteUrl(page.id))).statusCode).toBe(201);
    expect((await client(t.app, w.member).post(favoriteUrl(page.id))).statusCode).toBe(201);
    const events = recordEvents(t);
    const res = await client(t.app, w.member).post(`${pageUrl(p, page.id)}access/`, { access: PAGE_ACCESS.private });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ access: 1, is_favorite: true });
    expect((await favoritesOf(page.id)).map((f) => f.userId)).toEqual([w.member.id]);
    expect((await client(t.app, w.admin).get(pageUrl(p, page.id))).statusCode).toBe(404);
    // The event reaches the whole project, so a private page's event carries no name.
    const updated = events.find((e) => e.type === "page.updated" && e.entity_id === page.id);
    expect(updated?.data).toMatchObject({ id: page.id, access: 1 });
    expect(updated?.data).not.toHaveProperty("name");

    const back = await client(t.app, w.member).post(`${pageUrl(p, page.id)}access/`, { access: PAGE_ACCESS.public });
    expect(back.json().access).toBe(0);
    expect((await client(t.app, w.admin).get(pageUrl(p, page.id))).statusCode).toBe(200);
  });

  it("lets an admin change someone else's public page; refuses members and guests (403)", async () => {
    const page = await createPage(t, w.member, p);
    const mine = await createPage(t, w.admin, p);
    expect((await client(t.app, w.member).post(`${pageUrl(p, mine.id)}access/`, { access: 1 })).statusCode).toBe(403);
    expect((await client(t.app, w.guest).post(`${pageUrl(p, page.id)}access/`, { access: 1 })).statusCode).toBe(403);
    expect((await pageRow(t, mine.id))?.access).toBe(0);
    const res = await client(t.app, w.admin).post(`${pageUrl(p, page.id)}access/`, { access: 1 });
    expect(res.statusCode).toBe(200);
    expect((await pageRow(t, page.id))?.access).toBe(1);
  });

  it("answers 'Missing required fields.' without access, 400 for bad values, 401, 404; nothing changes", async () => {
    const page = await createPage(t, w.member, p);
    const url = `${pageUrl(p, page.id)}access/`;
    const missing = await client(t.app, w.member).post(url, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: "Missing required fields.", fields: { access: expect.any(Array) } });
    for (const body of [{ access: 2 }, { access: "private" }, { access: [1] }]) {
      expect((await client(t.app, w.member).post(url, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await client(t.app).post(url, { access: 1 })).statusCode).toBe(401);
    expect((await client(t.app, w.stranger).post(url, { access: 1 })).statusCode).toBe(404);
    expect((await pageRow(t, page.id))?.access).toBe(0);
  });
});

describe("lock", () => {
  it("locks and unlocks (owner), emitting page.locked / page.unlocked; a locked page refuses edits", async () => {
    const page = await createPage(t, w.member, p, { name: "Draft" });
    const events = recordEvents(t);
    const locked = await client(t.app, w.member).post(`${pageUrl(p, page.id)}lock/`);
    expect(locked.statusCode, locked.body).toBe(200);
    expect(locked.json().is_locked).toBe(true);
    // Locking again changes nothing.
    expect((await client(t.app, w.member).post(`${pageUrl(p, page.id)}lock/`)).statusCode).toBe(200);
    expect(events.filter((e) => e.type === "page.locked")).toHaveLength(1);

    const edit = await client(t.app, w.member).patch(pageUrl(p, page.id), { name: "Changed" });
    expect(edit.statusCode).toBe(400);
    expect(edit.json().code).toBe("PAGE_LOCKED");
    expect((await pageRow(t, page.id))?.name).toBe("Draft");

    const unlocked = await client(t.app, w.member).delete(`${pageUrl(p, page.id)}lock/`);
    expect(unlocked.json().is_locked).toBe(false);
    expect(events.filter((e) => e.type === "page.unlocked")).toHaveLength(1);
    expect((await client(t.app, w.member).patch(pageUrl(p, page.id), { name: "Changed" })).statusCode).toBe(200);
  });

  it("lets a project admin lock someone else's page; a member can't lock another's page (403)", async () => {
    const adminsPage = await createPage(t, w.admin, p);
    const membersPage = await createPage(t, w.member, p);
    expect((await client(t.app, w.member).post(`${pageUrl(p, adminsPage.id)}lock/`)).statusCode).toBe(403);
    expect((await client(t.app, w.guest).post(`${pageUrl(p, membersPage.id)}lock/`)).statusCode).toBe(403);
    expect((await pageRow(t, adminsPage.id))?.isLocked).toBe(false);
    expect((await client(t.app, w.admin).post(`${pageUrl(p, membersPage.id)}lock/`)).statusCode).toBe(200);
    expect((await client(t.app, w.member).delete(`${pageUrl(p, adminsPage.id)}lock/`)).statusCode).toBe(403);
  });

  it("answers 401 and 404 (another workspace, someone's private page)", async () => {
    const secret = await createPage(t, w.member, p, { access: PAGE_ACCESS.private });
    expect((await client(t.app).post(`${pageUrl(p, secret.id)}lock/`)).statusCode).toBe(401);
    expect((await client(t.app, w.stranger).post(`${pageUrl(p, secret.id)}lock/`)).statusCode).toBe(404);
    expect((await client(t.app, w.admin).post(`${pageUrl(p, secret.id)}lock/`)).statusCode).toBe(404);
    expect((await client(t.app, w.admin).delete(`${pageUrl(p, secret.id)}lock/`)).statusCode).toBe(404);
    expect((await pageRow(t, secret.id))?.isLocked).toBe(false);
  });
});

describe("archive and restore", () => {
  it("archives with a version saved first, sub-pages too, favorites removed; restores them", async () => {
    const page = await createPage(t, w.member, p, { description_html: "<p>Final words</p>" });
    const child = await createPage(t, w.admin, p, { parent: page.id });
    await client(t.app, w.member).post(favoriteUrl(page.id));
    await client(t.app, w.admin).post(favoriteUrl(child.id));
    const events = recordEvents(t);
    const res = await client(t.app, w.member).post(`${pageUrl(p, page.id)}archive/`);
    expect(res.statusCode, res.body).toBe(200);
    const archivedAt = res.json().archived_at as string;
    expect(new Date(archivedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect((await pageRow(t, page.id))?.archivedAt?.toISOString()).toBe(archivedAt);
    expect((await pageRow(t, child.id))?.archivedAt?.toISOString()).toBe(archivedAt);
    expect(await favoritesOf(page.id)).toEqual([]);
    expect(await favoritesOf(child.id)).toEqual([]);
    const versions = await t.db.select().from(pageVersions).where(eq(pageVersions.pageId, page.id));
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({ descriptionHtml: "<p>Final words</p>", ownedById: w.member.id });
    expect(
      events
        .filter((e) => e.type === "page.archived")
        .map((e) => e.entity_id)
        .sort(),
    ).toEqual([page.id, child.id].sort());

    // Archived pages are read-only and can't be archived twice.
    const edit = await client(t.app, w.member).patch(pageUrl(p, page.id), { name: "x" });
    expect(edit.json().code).toBe("PAGE_ARCHIVED");
    expect((await client(t.app, w.member).post(`${pageUrl(p, page.id)}archive/`)).statusCode).toBe(400);
    expect((await client(t.app, w.member).post(`${pageUrl(p, page.id)}lock/`)).statusCode).toBe(400);
    expect((await client(t.app, w.member).post(favoriteUrl(page.id))).statusCode).toBe(400);

    const restored = await client(t.app, w.member).delete(`${pageUrl(p, page.id)}archive/`);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().archived_at).toBeNull();
    expect((await pageRow(t, child.id))?.archivedAt).toBeNull();
    expect(events.filter((e) => e.type === "page.restored")).toHaveLength(2);
    expect((await client(t.app, w.member).delete(`${pageUrl(p, page.id)}archive/`)).statusCode).toBe(400);
  });

  it("refuses a member archiving someone else's page and guests (403); 401; 404", async () => {
    const page = await createPage(t, w.admin, p);
    expect((await client(t.app, w.member).post(`${pageUrl(p, page.id)}archive/`)).statusCode).toBe(403);
    expect((await client(t.app, w.guest).post(`${pageUrl(p, page.id)}archive/`)).statusCode).toBe(403);
    expect((await client(t.app).post(`${pageUrl(p, page.id)}archive/`)).statusCode).toBe(401);
    expect((await client(t.app, w.stranger).post(`${pageUrl(p, page.id)}archive/`)).statusCode).toBe(404);
    expect((await client(t.app, w.member).post(`${pageUrl(p, crypto.randomUUID())}archive/`)).statusCode).toBe(404);
    expect((await pageRow(t, page.id))?.archivedAt).toBeNull();
    await client(t.app, w.admin).post(`${pageUrl(p, page.id)}archive/`);
    expect((await client(t.app, w.member).delete(`${pageUrl(p, page.id)}archive/`)).statusCode).toBe(403);
    expect((await client(t.app).delete(`${pageUrl(p, page.id)}archive/`)).statusCode).toBe(401);
    expect((await pageRow(t, page.id))?.archivedAt).not.toBeNull();
  });
});

describe("favorites", () => {
  it("adds a favorite once (201, then 200), flags the page, removes it (204, then 404)", async () => {
    const page = await createPage(t, w.admin, p, { name: "Handbook" });
    const first = await client(t.app, w.member).post(favoriteUrl(page.id));
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({
      entity_type: "page",
      entity_identifier: page.id,
      project_id: p.id,
      is_folder: false,
      entity_data: { id: page.id, name: "Handbook" },
    });
    const again = await client(t.app, w.member).post(favoriteUrl(page.id));
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(first.json().id);
    expect((await client(t.app, w.member).get(pageUrl(p, page.id))).json().is_favorite).toBe(true);
    const list = (await client(t.app, w.member).get(pagesUrl(p))).json() as PageJson[];
    expect(list.find((x) => x.id === page.id)?.is_favorite).toBe(true);
    expect((await client(t.app, w.admin).get(pageUrl(p, page.id))).json().is_favorite).toBe(false);

    expect((await client(t.app, w.member).delete(favoriteUrl(page.id))).statusCode).toBe(204);
    expect(await favoritesOf(page.id)).toEqual([]);
    expect((await client(t.app, w.member).delete(favoriteUrl(page.id))).statusCode).toBe(404);
  });

  it("refuses guests (403), anonymous (401), others' private pages and other workspaces (404)", async () => {
    const page = await createPage(t, w.admin, p);
    const secret = await createPage(t, w.member, p, { access: PAGE_ACCESS.private });
    expect((await client(t.app, w.guest).post(favoriteUrl(page.id))).statusCode).toBe(403);
    expect((await client(t.app).post(favoriteUrl(page.id))).statusCode).toBe(401);
    expect((await client(t.app).delete(favoriteUrl(page.id))).statusCode).toBe(401);
    expect((await client(t.app, w.admin).post(favoriteUrl(secret.id))).statusCode).toBe(404);
    expect((await client(t.app, w.stranger).post(favoriteUrl(page.id))).statusCode).toBe(404);
    expect((await client(t.app, w.member).post(favoriteUrl("nope"))).statusCode).toBe(404);
    expect(await favoritesOf(page.id)).toEqual([]);
    expect(await favoritesOf(secret.id)).toEqual([]);
  });
});
