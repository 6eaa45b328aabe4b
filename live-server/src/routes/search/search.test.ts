/**
 * Workspace search (GET search/, GET entity-search/) on a real database: the reference's
 * shapes with every group, ranking (exact before partial), work-item keys, typos, hits in
 * descriptions, comments and page text — and nothing the caller may not see: private projects,
 * others' private pages and views, archived, draft, deleted and intake items, archived
 * projects and pages, a restricted guest's view, another workspace.
 */
import { NETWORK, ROLE } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp, type TestUser } from "../../../test/harness.ts";
import { cycles, issues, pages, projects } from "../../db/schema.ts";
import { createFixture, createIssue, type Fixture } from "../issues/test-support.ts";
import { addMember, createProject } from "../projects/test-support.ts";

let t: TestApp;
let f: Fixture;

type Item = { id: string; name: string; sequence_id: number };
const ids: Record<string, string> = {};
let item: Record<string, Item> = {};
let privateProject: { id: string; url: string };
let archivedProject: { id: string; url: string };

const ws = (slug = f.w.slug) => `/api/workspaces/${slug}`;
const as = (user: TestUser | null) => client(t.app, user);

async function search(user: TestUser, params: Record<string, string>, slug?: string) {
  const res = await as(user).get(`${ws(slug)}/search/?${new URLSearchParams(params)}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().results as Record<string, { id: string; name: string }[]>;
}
async function entities(user: TestUser, params: Record<string, string>) {
  const res = await as(user).get(`${ws()}/entity-search/?${new URLSearchParams(params)}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Record<string, Record<string, unknown>[]>;
}
const idsOf = (rows: { id: string }[] | undefined) => (rows ?? []).map((r) => r.id);

async function make(user: TestUser, projectUrl: string, key: string, body: Record<string, unknown>) {
  const created = (await createIssue(t, user, projectUrl, body)) as unknown as Item;
  item[key] = created;
  return created;
}
async function post(user: TestUser, url: string, body: Record<string, unknown>) {
  const res = await as(user).post(url, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}

beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
  item = {};
  const p = f.project.url;
  const admin = f.w.admin;

  await make(admin, p, "exact", { name: "Billing export" });
  await make(admin, p, "partial", { name: "Fix the billing export for annual plans" });
  await make(admin, p, "described", {
    name: "Tidy up the parser",
    description_html: "<p>The <strong>zebracorn</strong> tokenizer fails on tabs</p>",
  });
  const commented = await make(admin, p, "commented", { name: "Another item" });
  const comment = await as(f.w.member).post(`${p}/issues/${commented.id}/comments/`, {
    comment_html: "<p>Tried a marmalade sandwich, it works</p>",
  });
  expect(comment.statusCode, comment.body).toBe(201);
  await make(admin, p, "typo", { name: "Authentication timeout on mobile" });

  // One word in many places: who sees which.
  await make(admin, p, "memberSees", { name: "Nectarine rollout" });
  await make(admin, p, "guestOwn", { name: "Guest nectarine request" });
  await make(admin, p, "archived", { name: "Archived nectarine" });
  await make(admin, p, "draft", { name: "Draft nectarine" });
  await make(admin, p, "intake", { name: "Intake nectarine" });
  await make(admin, p, "deleted", { name: "Deleted nectarine" });
  await t.db
    .update(issues)
    .set({ createdById: f.w.guest.id })
    .where(eq(issues.id, item.guestOwn?.id ?? ""));
  await t.db
    .update(issues)
    .set({ archivedAt: new Date() })
    .where(eq(issues.id, item.archived?.id ?? ""));
  await t.db
    .update(issues)
    .set({ isDraft: true })
    .where(eq(issues.id, item.draft?.id ?? ""));
  await t.db
    .update(issues)
    .set({ inIntake: true })
    .where(eq(issues.id, item.intake?.id ?? ""));
  await t.db
    .update(issues)
    .set({ deletedAt: new Date() })
    .where(eq(issues.id, item.deleted?.id ?? ""));

  // A private project only the admin is in, and an archived project everyone was in.
  const secret = await createProject(t, admin, f.w.slug, { name: "Secret nectarine lab", network: NETWORK.private });
  privateProject = { id: secret.id, url: `${ws()}/projects/${secret.id}` };
  await make(admin, privateProject.url, "secret", { name: "Secret nectarine" });
  ids.secretCycle = (await post(admin, `${privateProject.url}/cycles/`, { name: "Secret nectarine cycle" })).id;
  ids.secretModule = (await post(admin, `${privateProject.url}/modules/`, { name: "Secret nectarine module" })).id;
  ids.secretView = (await post(admin, `${privateProject.url}/views/`, { name: "Secret nectarine view" })).id;
  ids.secretPage = (await post(admin, `${privateProject.url}/pages/`, { name: "Secret nectarine page" })).id;

  const old = await createProject(t, admin, f.w.slug, { name: "Old nectarine project" });
  archivedProject = { id: old.id, url: `${ws()}/projects/${old.id}` };
  await addMember(t, admin, f.w.slug, old.id, f.w.member, ROLE.member);
  await make(admin, archivedProject.url, "inArchivedProject", { name: "Nectarine in an archived project" });
  ids.archivedProjectPage = (await post(admin, `${archivedProject.url}/pages/`, { name: "Nectarine old page" })).id;
  await t.db.update(projects).set({ archivedAt: new Date() }).where(eq(projects.id, old.id));

  // Another workspace's work item with the same word.
  await make(f.w.stranger, f.foreign.url, "foreign", { name: "Foreign nectarine" });

  // Pages: public, private (the admin's), archived; one found by its text only.
  ids.publicPage = (await post(admin, `${p}/pages/`, { name: "Nectarine roadmap" })).id;
  ids.privatePage = (await post(admin, `${p}/pages/`, { name: "Private nectarine notes", access: 1 })).id;
  ids.archivedPage = (await post(admin, `${p}/pages/`, { name: "Archived nectarine page" })).id;
  await t.db.update(pages).set({ archivedAt: new Date() }).where(eq(pages.id, ids.archivedPage));
  ids.textPage = (
    await post(admin, `${p}/pages/`, { name: "Planning", description_html: "<p>The pangolin strategy for Q3</p>" })
  ).id;

  // Cycles, modules, views of the shared project; one private view and one archived cycle.
  ids.cycle = (await post(admin, `${p}/cycles/`, { name: "Nectarine cycle" })).id;
  ids.archivedCycle = (await post(admin, `${p}/cycles/`, { name: "Nectarine cycle of old" })).id;
  await t.db.update(cycles).set({ archivedAt: new Date() }).where(eq(cycles.id, ids.archivedCycle));
  ids.module = (await post(admin, `${p}/modules/`, { name: "Nectarine module" })).id;
  ids.view = (await post(admin, `${p}/views/`, { name: "Nectarine view" })).id;
  ids.privateView = (await post(admin, `${p}/views/`, { name: "Private nectarine view", access: 0 })).id;
});
afterAll(() => t.close());

describe("GET search/", () => {
  it("answers every group of the reference, in its shapes", async () => {
    const results = await search(f.w.admin, { search: "nectarine", workspace_search: "true" });
    expect(Object.keys(results)).toEqual(["workspace", "project", "issue", "cycle", "module", "issue_view", "page"]);
    expect(results.workspace).toEqual([]);
    const issue = results.issue?.find((r) => r.id === item.memberSees?.id);
    expect(issue).toEqual({
      name: "Nectarine rollout",
      id: item.memberSees?.id,
      sequence_id: item.memberSees?.sequence_id,
      project__identifier: f.project.identifier,
      project_id: f.project.id,
      workspace__slug: f.w.slug,
    });
    expect(results.project?.find((r) => r.id === privateProject.id)).toEqual({
      name: "Secret nectarine lab",
      id: privateProject.id,
      identifier: expect.any(String),
      workspace__slug: f.w.slug,
    });
    expect(results.cycle?.find((r) => r.id === ids.cycle)).toEqual({
      name: "Nectarine cycle",
      id: ids.cycle,
      project_id: f.project.id,
      project__identifier: f.project.identifier,
      workspace__slug: f.w.slug,
    });
    expect(idsOf(results.module)).toContain(ids.module);
    expect(idsOf(results.issue_view)).toContain(ids.view);
    expect(results.page?.find((r) => r.id === ids.publicPage)).toEqual({
      name: "Nectarine roadmap",
      id: ids.publicPage,
      project_ids: [f.project.id],
      project_identifiers: [f.project.identifier],
      project__identifiers: [f.project.identifier],
      workspace__slug: f.w.slug,
    });
  });

  it("finds the caller's workspaces by name", async () => {
    const name = (await as(f.w.admin).get(`${ws()}/`)).json().name as string;
    const results = await search(f.w.admin, { search: name });
    expect(results.workspace).toEqual([{ name, id: f.w.workspaceId, slug: f.w.slug }]);
    // The stranger's workspace is theirs only.
    const strangers = (await as(f.w.stranger).get(`${ws(f.w.otherSlug)}/`)).json().name as string;
    const theirs = await search(f.w.admin, { search: strangers });
    expect(idsOf(theirs.workspace)).not.toContain(f.w.otherWorkspaceId);
  });

  it("ranks an exact name before a partial one", async () => {
    const results = await search(f.w.member, { search: "billing export" });
    expect(idsOf(results.issue).slice(0, 2)).toEqual([item.exact?.id, item.partial?.id]);
    const lower = await search(f.w.member, { search: "BILLING EXPORT" });
    expect(idsOf(lower.issue)[0]).toBe(item.exact?.id);
  });

  it("finds a work item by its key: WEB-12, web-12, #12 and a bare 12", async () => {
    const it = item.typo as Item;
    const key = `${f.project.identifier}-${it.sequence_id}`;
    for (const text of [key, key.toLowerCase(), `#${it.sequence_id}`, String(it.sequence_id)]) {
      const results = await search(f.w.member, { search: text });
      expect(idsOf(results.issue)[0], text).toBe(it.id);
    }
    // Another project's number alone is not this item.
    const other = await search(f.w.member, { search: `ZZZ-${it.sequence_id}` });
    expect(idsOf(other.issue)).not.toContain(it.id);
  });

  it("tolerates a typo in a name, and finds a word as it is being typed", async () => {
    expect(idsOf((await search(f.w.member, { search: "authentcation" })).issue)).toContain(item.typo?.id);
    expect(idsOf((await search(f.w.member, { search: "authen" })).issue)).toContain(item.typo?.id);
    expect(idsOf((await search(f.w.member, { search: "timeout mobil" })).issue)).toContain(item.typo?.id);
    expect(idsOf((await search(f.w.member, { search: "nectarin" })).cycle)).toContain(ids.cycle);
  });

  it("finds words in descriptions, comments and page text (stemmed)", async () => {
    expect(idsOf((await search(f.w.member, { search: "zebracorn" })).issue)).toEqual([item.described?.id]);
    expect(idsOf((await search(f.w.member, { search: "tokenizer failing" })).issue)).toEqual([item.described?.id]);
    expect(idsOf((await search(f.w.member, { search: "marmalade" })).issue)).toEqual([item.commented?.id]);
    expect(idsOf((await search(f.w.member, { search: "pangolin" })).page)).toEqual([ids.textPage]);
  });

  it("finds a description and a page's text by their new words once written, not by the old", async () => {
    const it = await createIssue(t, f.w.admin, f.project.url, {
      name: "Rewritten later",
      description_html: "<p>quokka</p>",
    });
    expect(idsOf((await search(f.w.member, { search: "quokka" })).issue)).toEqual([it.id]);
    const patch = await as(f.w.admin).patch(`${f.project.url}/issues/${it.id}/`, { description_html: "<p>wombat</p>" });
    expect(patch.statusCode, patch.body).toBe(200);
    expect(idsOf((await search(f.w.member, { search: "wombat" })).issue)).toEqual([it.id]);
    expect(idsOf((await search(f.w.member, { search: "quokka" })).issue)).toEqual([]);
    // A change that leaves the text alone keeps its words (they are not written again).
    await as(f.w.admin).patch(`${f.project.url}/issues/${it.id}/`, { priority: "high" });
    expect(idsOf((await search(f.w.member, { search: "wombat" })).issue)).toEqual([it.id]);
    await t.db
      .update(pages)
      .set({ descriptionStripped: "the axolotl plan" })
      .where(eq(pages.id, ids.textPage ?? ""));
    expect(idsOf((await search(f.w.member, { search: "axolotl" })).page)).toEqual([ids.textPage]);
    expect(idsOf((await search(f.w.member, { search: "pangolin" })).page)).toEqual([]);
    await t.db
      .update(pages)
      .set({ descriptionStripped: "The pangolin strategy for Q3" })
      .where(eq(pages.id, ids.textPage ?? ""));
  });

  it("a member sees no private project, private page or view of others, nothing archived, drafted, deleted or in intake", async () => {
    const r = await search(f.w.member, { search: "nectarine", workspace_search: "true" });
    expect(idsOf(r.issue).sort()).toEqual([item.memberSees?.id, item.guestOwn?.id].sort());
    expect(idsOf(r.project)).toEqual([]);
    expect(idsOf(r.cycle)).toEqual([ids.cycle]);
    expect(idsOf(r.module)).toEqual([ids.module]);
    expect(idsOf(r.issue_view)).toEqual([ids.view]);
    expect(idsOf(r.page)).toEqual([ids.publicPage]);
  });

  it("the admin sees their private project's objects and their own private page and view, still nothing archived", async () => {
    const r = await search(f.w.admin, { search: "nectarine", workspace_search: "true" });
    expect(idsOf(r.issue).sort()).toEqual([item.memberSees?.id, item.guestOwn?.id, item.secret?.id].sort());
    expect(idsOf(r.project)).toEqual([privateProject.id]);
    expect(idsOf(r.cycle).sort()).toEqual([ids.cycle, ids.secretCycle].sort());
    expect(idsOf(r.module).sort()).toEqual([ids.module, ids.secretModule].sort());
    expect(idsOf(r.issue_view).sort()).toEqual([ids.view, ids.privateView, ids.secretView].sort());
    expect(idsOf(r.page).sort()).toEqual([ids.publicPage, ids.privatePage, ids.secretPage].sort());
    const all = JSON.stringify(r);
    for (const hidden of [item.archived, item.draft, item.intake, item.deleted, item.inArchivedProject, item.foreign]) {
      expect(all).not.toContain(hidden?.id);
    }
    for (const hidden of [ids.archivedPage, ids.archivedCycle, ids.archivedProjectPage, archivedProject.id]) {
      expect(all).not.toContain(hidden);
    }
  });

  it("a guest restricted to their own items finds only those (the lists' rule)", async () => {
    const r = await search(f.w.guest, { search: "nectarine", workspace_search: "true" });
    expect(idsOf(r.issue)).toEqual([item.guestOwn?.id]);
    expect(idsOf((await search(f.w.guest, { search: String(item.memberSees?.sequence_id) })).issue)).toEqual([]);
    expect(idsOf((await search(f.w.guest, { search: "marmalade" })).issue)).toEqual([]);
    // With guest_view_all_features on, they see the project's items as the lists do.
    await t.db.update(projects).set({ guestViewAllFeatures: true }).where(eq(projects.id, f.project.id));
    try {
      const open = await search(f.w.guest, { search: "nectarine" });
      expect(idsOf(open.issue).sort()).toEqual([item.memberSees?.id, item.guestOwn?.id].sort());
    } finally {
      await t.db.update(projects).set({ guestViewAllFeatures: false }).where(eq(projects.id, f.project.id));
    }
  });

  it("an outsider in no project finds no work item; another workspace's objects never show", async () => {
    const r = await search(f.w.outsider, { search: "nectarine", workspace_search: "true" });
    for (const group of ["project", "issue", "cycle", "module", "issue_view", "page"]) expect(r[group]).toEqual([]);
    const stranger = await search(f.w.stranger, { search: "nectarine" }, f.w.otherSlug);
    expect(idsOf(stranger.issue)).toEqual([item.foreign?.id]);
    expect(stranger.page).toEqual([]);
  });

  it("workspace_search=false with project_id keeps to that project; true searches the workspace", async () => {
    const inProject = await search(f.w.admin, {
      search: "nectarine",
      workspace_search: "false",
      project_id: privateProject.id,
    });
    expect(idsOf(inProject.issue)).toEqual([item.secret?.id]);
    expect(idsOf(inProject.cycle)).toEqual([ids.secretCycle]);
    expect(idsOf(inProject.page)).toEqual([ids.secretPage]);
    // The projects group is never narrowed (the reference's filter_projects ignores project_id).
    expect(idsOf(inProject.project)).toEqual([privateProject.id]);
    const everywhere = await search(f.w.admin, {
      search: "nectarine",
      workspace_search: "true",
      project_id: privateProject.id,
    });
    expect(idsOf(everywhere.issue)).toHaveLength(3);
  });

  it("entities= narrows the groups as the reference's (unknown names skipped)", async () => {
    const r = await search(f.w.member, { search: "nectarine", entities: "issue,page,intake" });
    expect(Object.keys(r)).toEqual(["issue", "page"]);
  });

  it("holds at most 30 per group, best first; an empty search answers every group empty", async () => {
    const names = Array.from({ length: 34 }, (_, i) => `Lychee batch ${i}`);
    for (const name of names) await createIssue(t, f.w.admin, f.project.url, { name });
    await createIssue(t, f.w.admin, f.project.url, { name: "Lychee" });
    const r = await search(f.w.member, { search: "lychee" });
    expect(r.issue).toHaveLength(30);
    expect(r.issue?.[0]?.name).toBe("Lychee");
    const empty = await search(f.w.member, { search: "  " });
    expect(Object.values(empty).every((g) => g.length === 0)).toBe(true);
    expect(Object.keys(empty)).toHaveLength(7);
  });

  it("a text PostgreSQL's parsers find odd stays a search: quotes, operators, stop words, LIKE signs", async () => {
    for (const text of ['"billing', "billing -export", "the", "100%_\\", "a", "!!", "or", "'; drop table issues; --"]) {
      const res = await as(f.w.member).get(`${ws()}/search/?${new URLSearchParams({ search: text })}`);
      expect(res.statusCode, `${text}: ${res.body}`).toBe(200);
    }
    const neg = await search(f.w.member, { search: "billing -annual" });
    expect(idsOf(neg.issue)).toContain(item.exact?.id);
  });

  it("401 signed out, 404 outside the workspace or for a project the caller cannot open, 400 on bad params", async () => {
    expect((await as(null).get(`${ws()}/search/?search=x`)).statusCode).toBe(401);
    expect((await as(f.w.stranger).get(`${ws()}/search/?search=x`)).statusCode).toBe(404);
    expect((await as(f.w.admin).get(`${ws("no-such-workspace")}/search/?search=x`)).statusCode).toBe(404);
    const bad = await as(f.w.member).get(`${ws()}/search/?search=x&workspace_search=maybe`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toHaveProperty("workspace_search");
    const badId = await as(f.w.member).get(`${ws()}/search/?search=x&project_id=nope`);
    expect(badId.statusCode).toBe(400);
    expect(badId.json().fields).toHaveProperty("project_id");
    expect((await as(f.w.member).get(`${ws()}/search/?search=${"x".repeat(256)}`)).statusCode).toBe(400);
    const hidden = await as(f.w.member).get(
      `${ws()}/search/?search=x&workspace_search=false&project_id=${privateProject.id}`,
    );
    expect(hidden.statusCode).toBe(404);
    const foreign = await as(f.w.admin).get(
      `${ws()}/search/?search=x&workspace_search=false&project_id=${f.foreign.id}`,
    );
    expect(foreign.statusCode).toBe(404);
  });
});

describe("GET entity-search/", () => {
  it("answers each asked type in the reference's shapes", async () => {
    const r = await entities(f.w.admin, {
      query: "nectarine",
      query_type: "project,issue,cycle,module,page",
      count: "10",
      project_id: f.project.id,
    });
    expect(Object.keys(r)).toEqual(["project", "issue", "cycle", "module", "page"]);
    const issue = r.issue?.find((i) => i.id === item.memberSees?.id);
    expect(issue).toEqual({
      name: "Nectarine rollout",
      id: item.memberSees?.id,
      sequence_id: item.memberSees?.sequence_id,
      project__identifier: f.project.identifier,
      project_id: f.project.id,
      priority: "none",
      state_id: expect.any(String),
      type_id: null,
    });
    expect(idsOf(r.issue as { id: string }[])).not.toContain(item.secret?.id);
    expect(r.cycle).toEqual([
      {
        name: "Nectarine cycle",
        id: ids.cycle,
        project_id: f.project.id,
        project__identifier: f.project.identifier,
        status: "DRAFT",
        workspace__slug: f.w.slug,
      },
    ]);
    expect(r.module).toEqual([
      {
        name: "Nectarine module",
        id: ids.module,
        project_id: f.project.id,
        project__identifier: f.project.identifier,
        status: expect.any(String),
        workspace__slug: f.w.slug,
      },
    ]);
    // Public pages only, as the reference's picker (the admin's private page is left out).
    expect(r.page).toEqual([
      {
        name: "Nectarine roadmap",
        id: ids.publicPage,
        logo_props: {},
        projects__id: f.project.id,
        workspace__slug: f.w.slug,
      },
    ]);
    expect(r.project?.[0]).toEqual({
      name: "Secret nectarine lab",
      id: privateProject.id,
      identifier: expect.any(String),
      logo_props: expect.any(Object),
      workspace__slug: f.w.slug,
    });
  });

  it("user_mention: the workspace's members by name, or the project's; newest first without a query", async () => {
    const everyone = await entities(f.w.member, { count: "50" });
    expect(Object.keys(everyone)).toEqual(["user_mention"]);
    const memberIds = (everyone.user_mention ?? []).map((u) => u.member__id);
    expect(memberIds).toEqual(expect.arrayContaining([f.w.admin.id, f.w.member.id, f.w.guest.id, f.w.outsider.id]));
    expect(memberIds).not.toContain(f.w.stranger.id);
    expect(everyone.user_mention?.[0]).toEqual({
      member__avatar_url: null,
      member__display_name: expect.any(String),
      member__id: expect.any(String),
    });
    const byName = await entities(f.w.member, { query_type: "user_mention", query: f.w.outsider.displayName });
    expect(byName.user_mention?.[0]?.member__id).toBe(f.w.outsider.id);
    const inProject = await entities(f.w.member, { query_type: "user_mention", project_id: f.project.id, count: "50" });
    expect(inProject.user_mention?.map((u) => u.member__id)).not.toContain(f.w.outsider.id);
    const five = await entities(f.w.member, {});
    expect(five.user_mention?.length).toBeLessThanOrEqual(5);
  });

  it("issue without a query: the newest the caller may see", async () => {
    const r = await entities(f.w.guest, { query_type: "issue", count: "20" });
    expect(idsOf(r.issue as { id: string }[])).toEqual([item.guestOwn?.id]);
    const member = await entities(f.w.member, { query_type: "issue", count: "3", project_id: f.project.id });
    const newest = await t.db
      .select({ id: issues.id, sequenceId: issues.sequenceId })
      .from(issues)
      .where(eq(issues.projectId, f.project.id));
    const hidden = new Set([item.archived, item.draft, item.intake, item.deleted].map((i) => i?.id));
    const expected = newest
      .filter((r) => !hidden.has(r.id))
      .sort((a, b) => b.sequenceId - a.sequenceId)
      .slice(0, 3)
      .map((r) => r.id);
    expect(idsOf(member.issue as { id: string }[])).toEqual(expected);
  });

  it("400 for an unknown query_type or a bad count, 401 and 404 as everywhere", async () => {
    const bad = await as(f.w.member).get(`${ws()}/entity-search/?query_type=issue,label`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain("label");
    expect((await as(f.w.member).get(`${ws()}/entity-search/?count=many`)).statusCode).toBe(400);
    expect((await as(f.w.member).get(`${ws()}/entity-search/?count=-1`)).statusCode).toBe(400);
    expect((await as(null).get(`${ws()}/entity-search/`)).statusCode).toBe(401);
    expect((await as(f.w.stranger).get(`${ws()}/entity-search/`)).statusCode).toBe(404);
    expect((await as(f.w.member).get(`${ws()}/entity-search/?project_id=${privateProject.id}`)).statusCode).toBe(404);
  });
});
