/**
 * Malformed input to the views routes, with real view ids (the app-wide fuzz test,
 * http/fuzz-support.ts, reaches these routes with ids that match nothing): wrong types, arrays for
 * objects, unknown keys, huge values and bad query strings are a 4xx, never a 5xx, and store
 * nothing.
 */
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, ORIGIN, type TestApp } from "../../../test/harness.ts";
import { SESSION_COOKIE } from "../../auth/sessions.ts";
import { issueViews } from "../../db/schema.ts";
import { createFixture, type Fixture } from "../issues/test-support.ts";

let t: TestApp;
let f: Fixture;
let projectView: string;
let workspaceView: string;

beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
  projectView = (await client(t.app, f.w.admin).post(`${f.project.url}/views/`, { name: "P" })).json().id;
  workspaceView = (await client(t.app, f.w.admin).post(`/api/workspaces/${f.w.slug}/views/`, { name: "W" })).json().id;
});
afterAll(() => t.close());

const BODIES: unknown[] = [
  null,
  [],
  "text",
  42,
  { name: 5 },
  { name: ["a"] },
  { name: "x".repeat(100_000) },
  { description: { a: 1 } },
  { access: "1" },
  { access: -1 },
  { access: 1e308 },
  { sort_order: "first" },
  { logo_props: [] },
  { filters: "priority=urgent" },
  { filters: [] },
  { filters: { priority: 5 } },
  { filters: { priority: [[["urgent"]]] } },
  { filters: { state: ["x".repeat(10_000)] } },
  { filters: { start_date: ["yesterday"] } },
  { display_filters: [] },
  { display_filters: { layout: 3 } },
  { display_filters: { calendar: { layout: "year" } } },
  { display_filters: { group_by: "priority", sub_group_by: { a: 1 } } },
  { display_properties: { assignee: 1 } },
  { display_properties: [] },
  { view: 123 },
  { view: null },
  { view_props: "x" },
  { view_props: { filters: [] } },
  { unknown: { deeply: { nested: { value: [1, 2, 3] } } } },
];

describe("malformed input never answers 5xx", () => {
  it("every write route of views, with real ids", async () => {
    const ws = `/api/workspaces/${f.w.slug}`;
    const routes: [string, string][] = [
      ["POST", `${f.project.url}/views/`],
      ["PATCH", `${f.project.url}/views/${projectView}/`],
      ["POST", `${f.project.url}/views/${projectView}/access/`],
      ["POST", `${f.project.url}/views/${projectView}/lock/`],
      ["DELETE", `${f.project.url}/views/${projectView}/lock/`],
      ["POST", `${f.project.url}/views/${projectView}/publish/`],
      ["DELETE", `${f.project.url}/views/${projectView}/publish/`],
      ["POST", `${f.project.url}/user-favorite-views/`],
      ["POST", `${ws}/views/`],
      ["PATCH", `${ws}/views/${workspaceView}/`],
      ["POST", `${ws}/views/${workspaceView}/access/`],
      ["POST", `${ws}/workspace-views/`],
      ["PATCH", `${ws}/workspace-views/assigned/user-properties/`],
    ];
    const [before] = await t.db
      .select({ n: count() })
      .from(issueViews)
      .where(eq(issueViews.workspaceId, f.w.workspaceId));
    const created: string[] = [];
    for (const [method, url] of routes) {
      for (const body of BODIES) {
        const res = await t.app.inject({
          method: method as "POST",
          url,
          headers: {
            cookie: `${SESSION_COOKIE}=${f.w.admin.token}`,
            origin: ORIGIN,
            "content-type": "application/json",
          },
          payload: JSON.stringify(body),
        });
        expect(res.statusCode, `${method} ${url} ${JSON.stringify(body).slice(0, 80)}: ${res.body}`).toBeLessThan(500);
        if (res.statusCode < 300 && method === "POST" && url.endsWith("/views/")) created.push(JSON.stringify(body));
      }
      // Unlock again so the next route sees a changeable view.
      await client(t.app, f.w.admin).delete(`${f.project.url}/views/${projectView}/lock/`);
    }
    const [after] = await t.db
      .select({ n: count() })
      .from(issueViews)
      .where(eq(issueViews.workspaceId, f.w.workspaceId));
    // Only bodies without any view field create a view (an empty body, or unknown keys, which
    // are ignored as everywhere): an Untitled view with the defaults.
    expect([...new Set(created)].sort()).toEqual([
      "null",
      '{"unknown":{"deeply":{"nested":{"value":[1,2,3]}}}}',
      '{"view":123}',
      '{"view":null}',
      '{"view_props":"x"}',
      '{"view_props":{"filters":[]}}',
    ]);
    expect((after?.n ?? 0) - (before?.n ?? 0)).toBe(created.length);
  });

  it("bad query strings on the lists are 400, never 5xx", async () => {
    const ws = `/api/workspaces/${f.w.slug}`;
    const queries = [
      "?per_page=-1",
      "?per_page=abc",
      "?cursor=1:2",
      "?group_by=labels&sub_group_by=labels",
      "?order_by=%00",
      "?project=None",
      "?target_date=2026-02-30",
      "?layout=timeline",
      "?start_target_date=maybe",
      "?type=some",
      "?sub_issue=perhaps",
    ];
    for (const url of [`${ws}/issues/`, `${f.project.url}/views/${projectView}/issues/`]) {
      for (const q of queries) {
        const res = await client(t.app, f.w.admin).get(`${url}${q}`);
        expect(res.statusCode, `${url}${q}: ${res.body}`).toBe(400);
      }
    }
  });
});
