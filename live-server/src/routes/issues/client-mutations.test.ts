/**
 * Exactly once per client mutation id (services/client-mutations.ts): an offline outbox replays
 * work-item creates, updates and comments with the ids they were first sent with, and a request
 * whose answer was lost is retried with its id; neither may apply the change twice.
 */
import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../../test/harness.ts";
import { clientMutations, issueComments, issues } from "../../db/schema.ts";
import { activitiesOf, countIssues, createFixture, createIssue, eventsOf, type Fixture } from "./test-support.ts";

let t: TestApp;
let f: Fixture;
beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
});
afterAll(() => t.close());

const header = (id: string) => ({ "x-client-mutation-id": id });
const itemUrl = (id: string) => `${f.project.url}/issues/${id}/`;

async function storedMutations(mutationId: string): Promise<number> {
  const [row] = await t.db
    .select({ n: count() })
    .from(clientMutations)
    .where(eq(clientMutations.mutationId, mutationId));
  return row?.n ?? 0;
}

describe("POST issues/ with a client mutation id", () => {
  it("creates once: the replay answers the same item and changes nothing", async () => {
    const before = await countIssues(t, f.project.id);
    const first = await client(t.app, f.w.member, header("create-1")).post(`${f.project.url}/issues/`, {
      name: "Made offline",
    });
    expect(first.statusCode, first.body).toBe(201);
    const created = eventsOf(f, "issue.created").length;
    const again = await client(t.app, f.w.member, header("create-1")).post(`${f.project.url}/issues/`, {
      name: "Made offline",
    });
    expect(again.statusCode).toBe(201);
    expect(again.json().id).toBe(first.json().id);
    expect(again.json().sequence_id).toBe(first.json().sequence_id);
    expect(await countIssues(t, f.project.id)).toBe(before + 1);
    expect(eventsOf(f, "issue.created")).toHaveLength(created);
  });

  it("two copies racing each other create one item, and both answer it", async () => {
    const before = await countIssues(t, f.project.id);
    const send = () =>
      client(t.app, f.w.member, header("create-race")).post(`${f.project.url}/issues/`, { name: "Raced" });
    const [a, b] = await Promise.all([send(), send()]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(a.json().id).toBe(b.json().id);
    expect(await countIssues(t, f.project.id)).toBe(before + 1);
  });

  it("is per user: another user's change with the same id is their own", async () => {
    const before = await countIssues(t, f.project.id);
    const mine = await client(t.app, f.w.member, header("shared-id")).post(`${f.project.url}/issues/`, { name: "M" });
    const theirs = await client(t.app, f.w.admin, header("shared-id")).post(`${f.project.url}/issues/`, { name: "A" });
    expect([mine.statusCode, theirs.statusCode]).toEqual([201, 201]);
    expect(theirs.json().id).not.toBe(mine.json().id);
    expect(await countIssues(t, f.project.id)).toBe(before + 2);
  });

  it("without an id every request is a change of its own", async () => {
    const before = await countIssues(t, f.project.id);
    await createIssue(t, f.w.member, f.project.url, { name: "Twice" });
    await createIssue(t, f.w.member, f.project.url, { name: "Twice" });
    expect(await countIssues(t, f.project.id)).toBe(before + 2);
  });

  it("refuses (409) an id already used for another call, changing nothing", async () => {
    const item = await createIssue(t, f.w.member, f.project.url, { name: "Keep me" });
    await client(t.app, f.w.member, header("used-once")).post(`${f.project.url}/issues/`, { name: "First" });
    const res = await client(t.app, f.w.member, header("used-once")).patch(itemUrl(item.id), { name: "Other" });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe("MUTATION_ID_REUSED");
    const [row] = await t.db.select().from(issues).where(eq(issues.id, item.id));
    expect(row?.name).toBe("Keep me");
  });

  it("stores nothing for a refused request: 401, 404 across workspaces, 403 for a guest, 400", async () => {
    const before = await countIssues(t, f.project.id);
    expect(
      (await client(t.app, null, header("r-401")).post(`${f.project.url}/issues/`, { name: "x" })).statusCode,
    ).toBe(401);
    expect(
      (await client(t.app, f.w.member, header("r-404")).post(`${f.foreign.url}/issues/`, { name: "x" })).statusCode,
    ).toBe(404);
    expect(
      (await client(t.app, f.w.guest, header("r-403")).post(`${f.project.url}/issues/`, { name: "x" })).statusCode,
    ).toBe(403);
    expect(
      (await client(t.app, f.w.member, header("r-400")).post(`${f.project.url}/issues/`, { name: "" })).statusCode,
    ).toBe(400);
    expect(await countIssues(t, f.project.id)).toBe(before);
    for (const id of ["r-401", "r-404", "r-403", "r-400"]) expect(await storedMutations(id)).toBe(0);
    // A refused id stays free: the corrected request with it applies.
    const fixed = await client(t.app, f.w.member, header("r-400")).post(`${f.project.url}/issues/`, { name: "Fixed" });
    expect(fixed.statusCode).toBe(201);
    expect(await countIssues(t, f.project.id)).toBe(before + 1);
  });
});

describe("PATCH issues/:id/ with a client mutation id", () => {
  it("applies once: a late replay answers the first result and does not undo a later change", async () => {
    const item = await createIssue(t, f.w.member, f.project.url, { name: "Original" });
    const first = await client(t.app, f.w.member, header("rename-1")).patch(itemUrl(item.id), { name: "Renamed" });
    expect(first.statusCode, first.body).toBe(200);
    const later = await client(t.app, f.w.member, header("rename-2")).patch(itemUrl(item.id), {
      name: "Renamed again",
    });
    expect(later.statusCode).toBe(200);
    const history = (await activitiesOf(t, item.id)).length;
    const updates = eventsOf(f, "issue.updated", item.id).length;

    const replay = await client(t.app, f.w.member, header("rename-1")).patch(itemUrl(item.id), { name: "Renamed" });
    expect(replay.statusCode).toBe(200);
    expect(replay.json().name).toBe("Renamed");
    const [row] = await t.db.select().from(issues).where(eq(issues.id, item.id));
    expect(row?.name).toBe("Renamed again");
    expect(await activitiesOf(t, item.id)).toHaveLength(history);
    expect(eventsOf(f, "issue.updated", item.id)).toHaveLength(updates);
  });

  it("a replay is still checked for access first (another workspace's user gets 404)", async () => {
    const item = await createIssue(t, f.w.member, f.project.url);
    await client(t.app, f.w.member, header("access-1")).patch(itemUrl(item.id), { name: "Mine" });
    const res = await client(t.app, f.w.stranger, header("access-1")).patch(itemUrl(item.id), { name: "Mine" });
    expect(res.statusCode).toBe(404);
  });
});

describe("POST comments/ with a client mutation id", () => {
  it("comments once", async () => {
    const item = await createIssue(t, f.w.member, f.project.url);
    const url = `${itemUrl(item.id)}comments/`;
    const first = await client(t.app, f.w.member, header("comment-1")).post(url, { comment_html: "<p>Hi</p>" });
    expect(first.statusCode, first.body).toBe(201);
    const again = await client(t.app, f.w.member, header("comment-1")).post(url, { comment_html: "<p>Hi</p>" });
    expect(again.statusCode).toBe(201);
    expect(again.json().id).toBe(first.json().id);
    const [row] = await t.db
      .select({ n: count() })
      .from(issueComments)
      .where(and(eq(issueComments.issueId, item.id)));
    expect(row?.n).toBe(1);
  });
});
