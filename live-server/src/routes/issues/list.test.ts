import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../../test/harness.ts";
import { issues, projects } from "../../db/schema.ts";
import type { PresentedIssue } from "./query.ts";
import { anotherProject, createFixture, createIssue, createLabel, type Fixture, stateOf } from "./test-support.ts";

let t: TestApp;
let f: Fixture;
type P = { id: string; url: string; identifier: string };
let p: P;
/** Items of `p`: a..e in creation order. */
let items: PresentedIssue[];
let labelA: string;
let labelB: string;

beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
  p = await anotherProject(t, f);
  labelA = await createLabel(t, p.id, "Alpha");
  labelB = await createLabel(t, p.id, "Beta");
  const started = await stateOf(t, p.id, "started");
  const todo = await stateOf(t, p.id, "unstarted");
  items = [];
  items.push(await createIssue(t, f.w.admin, p.url, { name: "Apple", priority: "low", label_ids: [labelA, labelB] }));
  items.push(
    await createIssue(t, f.w.admin, p.url, {
      name: "Banana",
      priority: "urgent",
      state_id: started,
      label_ids: [labelA],
    }),
  );
  items.push(
    await createIssue(t, f.w.member, p.url, {
      name: "Cherry",
      priority: "high",
      state_id: todo,
      target_date: "2026-04-01",
      assignee_ids: [f.w.member.id],
    }),
  );
  items.push(
    await createIssue(t, f.w.member, p.url, { name: "Date", target_date: "2026-03-01", parent_id: items[0]?.id }),
  );
  items.push(await createIssue(t, f.w.admin, p.url, { name: "Elder", priority: "medium", state_id: started }));
});
afterAll(() => t.close());

const list = (query = "", user = f.w.admin) => client(t.app, user).get(`${p.url}/issues/${query ? `?${query}` : ""}`);
const ids = (results: PresentedIssue[]) => results.map((i) => i.id);
const nth = (i: number) => items[i]?.id as string;

describe("GET /issues/ (ungrouped)", () => {
  it("answers the paginated shape in sort order", async () => {
    const res = await list();
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      total_count: 5,
      next_cursor: "50:1:0",
      prev_cursor: "50:0:0",
      next_page_results: false,
      total_pages: 1,
      count: 5,
      grouped_by: null,
      sub_grouped_by: null,
    });
    expect(ids(body.results)).toEqual(items.map((i) => i.id));
    expect(body.results[0]).not.toHaveProperty("description_html");
  });

  it("pages with the perPage:pageIndex:0 cursor", async () => {
    const first = (await list("per_page=2")).json();
    expect(ids(first.results)).toEqual([nth(0), nth(1)]);
    expect(first).toMatchObject({ next_cursor: "2:1:0", next_page_results: true, total_pages: 3, total_count: 5 });
    const second = (await list(`cursor=${first.next_cursor}`)).json();
    expect(ids(second.results)).toEqual([nth(2), nth(3)]);
    const third = (await list("cursor=2:2:0")).json();
    expect(ids(third.results)).toEqual([nth(4)]);
    expect(third.next_page_results).toBe(false);
    const beyond = (await list("cursor=2:9:0")).json();
    expect(beyond).toMatchObject({ results: [], total_count: 5, next_page_results: false });
    const clamped = (await list("cursor=500:0:0")).json();
    expect(clamped.next_cursor).toBe("100:1:0");
  });

  it("orders by the supported keys", async () => {
    const by = async (order: string) => ids((await list(`order_by=${order}`)).json().results);
    expect(await by("priority")).toEqual([nth(1), nth(2), nth(4), nth(0), nth(3)]);
    expect(await by("-priority")).toEqual([nth(3), nth(0), nth(4), nth(2), nth(1)]);
    expect(await by("target_date")).toEqual([nth(3), nth(2), nth(0), nth(1), nth(4)]);
    expect(await by("-target_date")).toEqual([nth(2), nth(3), nth(4), nth(1), nth(0)]);
    expect(await by("-sequence_id")).toEqual([...items].reverse().map((i) => i.id));
    expect(await by("-created_at")).toEqual([...items].reverse().map((i) => i.id));
    expect(await by("name")).toEqual(items.map((i) => i.id));
    expect((await by("labels__name")).slice(0, 2)).toEqual([nth(0), nth(1)]);
    expect((await by("state__group"))[0]).toBe(nth(0));
    expect((await by("assignees__first_name"))[0]).toBe(nth(2));
    expect((await by("sub_issues_count")).at(-1)).toBe(nth(0));
  });

  it("narrows by type, sub_issue and search", async () => {
    expect(ids((await list("type=active")).json().results).sort()).toEqual([nth(1), nth(2), nth(4)].sort());
    expect(ids((await list("type=backlog")).json().results).sort()).toEqual([nth(0), nth(3)].sort());
    expect(ids((await list("sub_issue=false")).json().results)).not.toContain(nth(3));
    expect(ids((await list("search=an")).json().results)).toEqual([nth(1)]);
    expect(ids((await list("search=APPLE")).json().results)).toEqual([nth(0)]);
    const seq = items[2]?.sequence_id;
    expect(ids((await list(`search=${seq}`)).json().results)).toEqual([nth(2)]);
    expect(ids((await list(`search=${p.identifier}-${seq}`)).json().results)).toEqual([nth(2)]);
    expect(ids((await list(`search=ZZZ-${seq}`)).json().results)).toEqual([]);
    expect(ids((await list("search=100%25")).json().results)).toEqual([]);
  });

  it("leaves out archived, draft, deleted items and epics", async () => {
    const q = await anotherProject(t, f);
    const keep = await createIssue(t, f.w.admin, q.url);
    const gone = await createIssue(t, f.w.admin, q.url);
    const archived = await createIssue(t, f.w.admin, q.url);
    const epic = await createIssue(t, f.w.admin, q.url);
    const draft = await client(t.app, f.w.admin).post(`${q.url}/issue-drafts/`, { name: "Draft" });
    expect(draft.statusCode).toBe(201);
    await t.db.update(issues).set({ deletedAt: new Date() }).where(eq(issues.id, gone.id));
    await t.db.update(issues).set({ archivedAt: new Date() }).where(eq(issues.id, archived.id));
    await t.db.update(issues).set({ isEpic: true }).where(eq(issues.id, epic.id));
    const res = (await client(t.app, f.w.admin).get(`${q.url}/issues/`)).json();
    expect(ids(res.results)).toEqual([keep.id]);
    const archive = (await client(t.app, f.w.admin).get(`${q.url}/archived-issues/`)).json();
    expect(ids(archive.results)).toEqual([archived.id]);
  });

  it("shows a restricted guest only the items they created", async () => {
    const q = await anotherProject(t, f);
    await createIssue(t, f.w.admin, q.url);
    const own = await createIssue(t, f.w.admin, q.url);
    await t.db.update(issues).set({ createdById: f.w.guest.id }).where(eq(issues.id, own.id));
    const res = (await client(t.app, f.w.guest).get(`${q.url}/issues/?group_by=state_id`)).json();
    expect(res.total_count).toBe(1);
    await t.db.update(projects).set({ guestViewAllFeatures: true }).where(eq(projects.id, q.id));
    expect((await client(t.app, f.w.guest).get(`${q.url}/issues/`)).json().total_count).toBe(2);
    const archive = await client(t.app, f.w.guest).get(`${q.url}/archived-issues/`);
    expect(archive.statusCode).toBe(200);
  });

  it("refuses bad parameters with 400", async () => {
    for (const q of [
      "cursor=abc",
      "cursor=1:x:0",
      "per_page=0",
      "group_by=colour",
      "group_by=priority&sub_group_by=priority",
      "order_by=random",
      "type=someday",
      "sub_issue=maybe",
      "priority=critical",
      "state=nope",
      "target_date=tomorrow",
      "start_date=2026-01-01;around",
    ]) {
      const res = await list(q);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error, q).toBeTruthy();
    }
  });

  it("answers 401 and 404 outside the workspace", async () => {
    expect((await list("", null as never)).statusCode).toBe(401);
    expect((await list("", f.w.stranger)).statusCode).toBe(404);
    expect((await client(t.app, f.w.admin).get(`${f.foreign.url}/issues/`)).statusCode).toBe(404);
    expect((await client(t.app, f.w.admin).get(`${p.url}/epics/`)).statusCode).toBe(404);
  });
});

describe("GET /issues/ (grouped)", () => {
  type Cell = { results: PresentedIssue[]; total_results: number };

  it("groups by state with every state present, even empty ones", async () => {
    const body = (await list("group_by=state_id")).json();
    expect(body).toMatchObject({ grouped_by: "state_id", sub_grouped_by: null, total_count: 5, count: 5 });
    const groups = body.results as Record<string, Cell>;
    const backlog = await stateOf(t, p.id, "backlog");
    const started = await stateOf(t, p.id, "started");
    const done = await stateOf(t, p.id, "completed");
    expect(Object.keys(groups)).toHaveLength(5);
    expect(Object.keys(groups)[0]).toBe(backlog);
    expect(ids(groups[backlog]?.results ?? [])).toEqual([nth(0), nth(3)]);
    expect(groups[started]).toMatchObject({ total_results: 2 });
    expect(groups[done]).toEqual({ results: [], total_results: 0 });
  });

  it("puts an item in each of its label groups and unlabelled ones in None", async () => {
    const body = (await list("group_by=labels__id")).json();
    const groups = body.results as Record<string, Cell>;
    expect(Object.keys(groups)).toEqual([labelA, labelB, "None"]);
    expect(ids(groups[labelA]?.results ?? [])).toEqual([nth(0), nth(1)]);
    expect(ids(groups[labelB]?.results ?? [])).toEqual([nth(0)]);
    expect(ids(groups.None?.results ?? [])).toEqual([nth(2), nth(3), nth(4)]);
    expect(body.total_count).toBe(5);
    // The label filter narrows items, not their groups: the matching item keeps both labels' groups.
    const filtered = (await list(`group_by=labels__id&labels=${labelB}`)).json();
    expect(filtered.results[labelA].total_results).toBe(1);
    expect(filtered.results[labelB].total_results).toBe(1);
    expect(filtered.results.None.total_results).toBe(0);
  });

  it("groups by assignees with the project's members and None", async () => {
    const groups = (await list("group_by=assignees__id")).json().results as Record<string, Cell>;
    expect(ids(groups[f.w.member.id]?.results ?? [])).toEqual([nth(2)]);
    expect(groups[f.w.admin.id]).toEqual({ results: [], total_results: 0 });
    expect(groups.None?.total_results).toBe(4);
  });

  it("orders priority groups urgent first and pages each group", async () => {
    const body = (await list("group_by=priority&per_page=1")).json();
    expect(Object.keys(body.results)).toEqual(["urgent", "high", "medium", "low", "none"]);
    expect(body.results.none).toMatchObject({ total_results: 1 });
    const byState = (await list("group_by=state__group&per_page=1")).json();
    expect(Object.keys(byState.results)).toEqual(["backlog", "unstarted", "started", "completed", "cancelled"]);
    expect(ids(byState.results.backlog.results)).toEqual([nth(0)]);
    expect(byState).toMatchObject({ next_page_results: true, total_pages: 2, next_cursor: "1:1:0" });
    const next = (await list("group_by=state__group&cursor=1:1:0")).json();
    expect(ids(next.results.backlog.results)).toEqual([nth(3)]);
    expect(ids(next.results.started.results)).toEqual([nth(4)]);
    expect(next.results.unstarted).toEqual({ results: [], total_results: 1 });
    expect(next.next_page_results).toBe(false);
  });

  it("groups dates with None for items without one, creators, and cycles/modules as a single None", async () => {
    const byTarget = (await list("group_by=target_date")).json().results;
    expect(Object.keys(byTarget)).toEqual(["2026-03-01", "2026-04-01", "None"]);
    const byCreator = (await list("group_by=created_by")).json().results;
    expect(byCreator[f.w.member.id].total_results).toBe(2);
    const byCycle = (await list("group_by=cycle_id")).json().results;
    expect(Object.keys(byCycle)).toEqual(["None"]);
    expect(byCycle.None.total_results).toBe(5);
    const byAlias = (await list("group_by=state")).json();
    expect(byAlias.grouped_by).toBe("state_id");
  });

  it("sub-groups: {group: {results: {sub: {results, total_results}}, total_results}}", async () => {
    const body = (await list("group_by=state__group&sub_group_by=labels__id&per_page=1")).json();
    expect(body).toMatchObject({ grouped_by: "state__group", sub_grouped_by: "labels__id" });
    const backlog = body.results.backlog;
    expect(backlog.total_results).toBe(2);
    expect(Object.keys(backlog.results)).toEqual([labelA, labelB, "None"]);
    expect(backlog.results[labelA]).toMatchObject({ total_results: 1 });
    expect(ids(backlog.results[labelA].results)).toEqual([nth(0)]);
    expect(ids(backlog.results[labelB].results)).toEqual([nth(0)]);
    expect(ids(backlog.results.None.results)).toEqual([nth(3)]);
    const started = body.results.started;
    expect(started.total_results).toBe(2);
    expect(started.results.None.total_results).toBe(1);
    expect(body.results.completed).toMatchObject({ total_results: 0 });
    expect(body.results.completed.results.None).toEqual({ results: [], total_results: 0 });
    // A sub-group without a group is ignored.
    expect((await list("sub_group_by=priority")).json().sub_grouped_by).toBeNull();
  });
});

describe("GET /v2/issues/ (sync)", () => {
  it("pages by updated_at then id, with archived items and descriptions on request", async () => {
    const q = await anotherProject(t, f);
    const made: PresentedIssue[] = [];
    for (let i = 0; i < 5; i++) made.push(await createIssue(t, f.w.admin, q.url, { description_html: `<p>${i}</p>` }));
    await t.db
      .update(issues)
      .set({ archivedAt: new Date() })
      .where(eq(issues.id, made[0]?.id as string));
    const seen: PresentedIssue[] = [];
    let cursor = "";
    for (let guard = 0; guard < 10; guard++) {
      const res = await client(t.app, f.w.member).get(
        `${q.url}/v2/issues/?per_page=2&description=true${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      seen.push(...body.results);
      if (!body.next_page_results) {
        expect(body.next_cursor).toBeNull();
        break;
      }
      cursor = body.next_cursor;
    }
    expect(seen.map((i) => i.id).sort()).toEqual(made.map((i) => i.id).sort());
    expect(seen.every((i) => typeof i.description_html === "string")).toBe(true);
    expect(seen.find((i) => i.id === made[0]?.id)?.archived_at).not.toBeNull();
    const last = seen.at(-1) as PresentedIssue;
    const since = await client(t.app, f.w.member).get(
      `${q.url}/v2/issues/?updated_at__gt=${encodeURIComponent(last.updated_at)}`,
    );
    expect(since.json().results).toEqual([]);
    const all = (await client(t.app, f.w.member).get(`${q.url}/v2/issues/`)).json();
    expect(all.results[0]).not.toHaveProperty("description_html");
    expect((await client(t.app, f.w.member).get(`${q.url}/v2/issues/?cursor=bogus`)).statusCode).toBe(400);
    expect((await client(t.app, null).get(`${q.url}/v2/issues/`)).statusCode).toBe(401);
    expect((await client(t.app, f.w.stranger).get(`${q.url}/v2/issues/`)).statusCode).toBe(404);
  });
});
