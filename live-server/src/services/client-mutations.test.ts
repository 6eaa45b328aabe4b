/**
 * A client mutation id too long to keep is refused, not dropped (services/client-mutations.ts):
 * dropped, the change ran as if sent without an id, and every replay of the outbox entry applied
 * it again. (The exactly-once behaviour itself: routes/issues/client-mutations.test.ts.)
 */
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../test/harness.ts";
import { clientMutations, issueComments, issues } from "../db/schema.ts";
import { countIssues, createFixture, createIssue, type Fixture } from "../routes/issues/test-support.ts";
import { MAX_CLIENT_MUTATION_ID_LENGTH } from "./client-mutations.ts";

let t: TestApp;
let f: Fixture;
beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
});
afterAll(() => t.close());

const header = (id: string) => ({ "x-client-mutation-id": id });
const tooLong = "m".repeat(MAX_CLIENT_MUTATION_ID_LENGTH + 1);

async function storedMutations(): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(clientMutations);
  return row?.n ?? 0;
}

describe("an x-client-mutation-id longer than the limit", () => {
  it("is refused with 400 INVALID_CLIENT_MUTATION_ID, and a replay of it changes nothing either", async () => {
    const before = await countIssues(t, f.project.id);
    const mutations = await storedMutations();
    for (let i = 0; i < 2; i++) {
      const res = await client(t.app, f.w.member, header(tooLong)).post(`${f.project.url}/issues/`, { name: "Twice?" });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: "INVALID_CLIENT_MUTATION_ID" });
      expect(res.json().error).toContain(String(MAX_CLIENT_MUTATION_ID_LENGTH));
    }
    expect(await countIssues(t, f.project.id)).toBe(before);
    expect(await storedMutations()).toBe(mutations);
  });

  it("is refused on an update and a comment too, leaving the item as it was", async () => {
    const item = await createIssue(t, f.w.member, f.project.url, { name: "Keep me" });
    const url = `${f.project.url}/issues/${item.id}/`;
    const patch = await client(t.app, f.w.member, header(tooLong)).patch(url, { name: "Changed" });
    expect(patch.statusCode).toBe(400);
    expect(patch.json().code).toBe("INVALID_CLIENT_MUTATION_ID");
    const [row] = await t.db.select().from(issues).where(eq(issues.id, item.id));
    expect(row?.name).toBe("Keep me");
    const comment = await client(t.app, f.w.member, header(tooLong)).post(`${url}comments/`, {
      comment_html: "<p>Hi</p>",
    });
    expect(comment.statusCode).toBe(400);
    const [comments] = await t.db.select({ n: count() }).from(issueComments).where(eq(issueComments.issueId, item.id));
    expect(comments?.n).toBe(0);
  });

  it("is accepted at exactly the limit, and applies once", async () => {
    const id = "k".repeat(MAX_CLIENT_MUTATION_ID_LENGTH);
    const before = await countIssues(t, f.project.id);
    const send = () => client(t.app, f.w.member, header(id)).post(`${f.project.url}/issues/`, { name: "Once" });
    const first = await send();
    expect(first.statusCode, first.body).toBe(201);
    const again = await send();
    expect(again.json().id).toBe(first.json().id);
    expect(await countIssues(t, f.project.id)).toBe(before + 1);
  });
});
