/**
 * Measures (never asserts) the cycle progress call and the cycle detail with its distribution
 * for a cycle of 2,000 work items with history (each added to the cycle, a third of them moved
 * to started and a sixth completed on later days). Prints the median of 20 calls of each; the
 * figure is reported in routes/cycles/README.md. Rows are inserted in bulk straight into the
 * tables (what the API would have written), so setting up takes seconds.
 */
import { addDays, calendarDate } from "@tideline/shared";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../../test/harness.ts";
import { createFixture, type Fixture, stateOf } from "../issues/test-support.ts";

const N = 2000;
const CALLS = 20;

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
  it(`progress/ and the cycle detail with ${N} work items in the cycle`, async () => {
    const today = calendarDate(new Date(), "UTC");
    const api = client(t.app, f.w.member);
    const cycle = (
      await api.post(`${f.project.url}/cycles/`, {
        name: "Big",
        start_date: addDays(today, -10),
        end_date: addDays(today, 4),
      })
    ).json() as { id: string };
    const backlog = await stateOf(t, f.project.id, "backlog");
    const started = await stateOf(t, f.project.id, "started");
    const done = await stateOf(t, f.project.id, "completed");
    const p = f.project.id;
    const u = f.w.member.id;
    await t.db.execute(sql`
      with base as (select workspace_id from projects where id = ${p}::uuid),
      seq as (select g from generate_series(1, ${N}) g),
      ins as (
        insert into issues (workspace_id, project_id, sequence_id, name, state_id, created_by, updated_by)
        select base.workspace_id, ${p}::uuid, 100000 + g, 'Item ' || g,
               case when g % 6 = 0 then ${done}::uuid when g % 3 = 0 then ${started}::uuid else ${backlog}::uuid end, ${u}::uuid, ${u}::uuid
        from base, seq returning id, workspace_id, sequence_id
      ),
      ci as (
        insert into cycle_issues (workspace_id, project_id, cycle_id, issue_id, created_by)
        select workspace_id, ${p}::uuid, ${cycle.id}::uuid, id, ${u}::uuid from ins returning issue_id
      ),
      added as (
        insert into issue_activities (workspace_id, project_id, issue_id, actor_id, verb, field, new_value, new_identifier, created_at)
        select workspace_id, ${p}::uuid, id, ${u}::uuid, 'updated', 'cycles', 'Big', ${cycle.id}::uuid,
               now() - interval '10 days' + (sequence_id % 5) * interval '1 day'
        from ins returning 1
      )
      insert into issue_activities (workspace_id, project_id, issue_id, actor_id, verb, field, old_identifier, new_identifier, created_at)
      select workspace_id, ${p}::uuid, id, ${u}::uuid, 'updated', 'state', ${backlog}::uuid,
             case when sequence_id % 6 = 0 then ${done}::uuid else ${started}::uuid end,
             now() - interval '4 days' + (sequence_id % 4) * interval '1 day'
      from ins where sequence_id % 3 = 0`);

    const time = async (url: string) => {
      const ms: number[] = [];
      let body: Record<string, unknown> = {};
      for (let i = 0; i < CALLS; i++) {
        const t0 = performance.now();
        const res = await api.get(url);
        ms.push(performance.now() - t0);
        expect(res.statusCode, res.body).toBe(200);
        body = res.json();
      }
      return { median: median(ms), body };
    };
    const progress = await time(`${f.project.url}/cycles/${cycle.id}/progress/`);
    expect(progress.body.total_issues).toBe(N);
    const detail = await time(`${f.project.url}/cycles/${cycle.id}/`);
    expect((detail.body.distribution as { completion_chart: Record<string, unknown> }).completion_chart).toBeDefined();
    console.log(
      `[cycle timing] ${N} work items, median of ${CALLS}: progress/ ${progress.median.toFixed(1)} ms; ` +
        `cycle detail with distribution ${detail.median.toFixed(1)} ms (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`,
    );
  });
});
