/**
 * Measures (never asserts) the workspace work-item list, GET /issues/, across 10 projects of
 * 1,000 work items each: the first page ungrouped (default order -created_at), grouped by
 * project, and grouped by priority. Prints the median of 10 calls of each; the figures are
 * reported in routes/views/README.md. Items are inserted in bulk straight into the table (what
 * the API would have written), so setting up takes seconds.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../../test/harness.ts";
import { createFixture, type Fixture } from "../issues/test-support.ts";
import { createProject } from "../projects/test-support.ts";

const PROJECTS = 10;
const PER_PROJECT = 1000;
const CALLS = 10;

let t: TestApp;
let f: Fixture;
beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
});
afterAll(() => t.close());

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};

describe("timing (printed, not asserted)", () => {
  it(`GET /issues/ across ${PROJECTS} projects of ${PER_PROJECT} work items`, async () => {
    const u = f.w.admin.id;
    for (let p = 0; p < PROJECTS; p++) {
      const project = await createProject(t, f.w.admin, f.w.slug);
      await t.db.execute(sql`
        insert into issues (workspace_id, project_id, sequence_id, name, priority, state_id, created_by, updated_by, created_at)
        select ${f.w.workspaceId}::uuid, ${project.id}::uuid, g, 'Item ' || g,
               (array['urgent','high','medium','low','none'])[1 + g % 5],
               (select id from states where project_id = ${project.id}::uuid order by sequence limit 1),
               ${u}::uuid, ${u}::uuid, now() - g * interval '1 minute'
        from generate_series(1, ${PER_PROJECT}) g`);
    }
    const api = client(t.app, f.w.admin);
    const url = `/api/workspaces/${f.w.slug}/issues/`;
    const time = async (query: string) => {
      const ms: number[] = [];
      let body: Record<string, unknown> = {};
      for (let i = 0; i < CALLS; i++) {
        const t0 = performance.now();
        const res = await api.get(`${url}${query}`);
        ms.push(performance.now() - t0);
        expect(res.statusCode, res.body).toBe(200);
        body = res.json();
      }
      return { median: median(ms), body };
    };
    const flat = await time("");
    expect(flat.body.total_count).toBe(PROJECTS * PER_PROJECT);
    const byProject = await time("?group_by=project");
    const byPriority = await time("?group_by=priority&order_by=-created_at");
    console.log(
      `[workspace issues timing] ${PROJECTS} projects x ${PER_PROJECT} work items, median of ${CALLS}: ` +
        `first page ${flat.median.toFixed(1)} ms; grouped by project ${byProject.median.toFixed(1)} ms; ` +
        `grouped by priority ${byPriority.median.toFixed(1)} ms (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`,
    );
  }, 120_000);
});
