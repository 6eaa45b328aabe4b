/**
 * The app-wide fuzz test's machinery (fuzz-reads.test.ts, fuzz-writes-*.test.ts). Malformed input
 * never answers 5xx (issue 9, security item 5). Every write route the app
 * registers (POST/PUT/PATCH/DELETE, read from the router itself, so a new route is fuzzed the
 * day it is added) is called as a signed-in workspace admin, with the real ids of objects made
 * in beforeAll, and with malformed variants: NUL and lone surrogates in path parameters, query
 * strings, string fields and object keys; invalid, zero and over-long ids; wrong types; huge
 * strings and numbers; arrays for objects; unknown keys; empty, invalid and deeply nested
 * bodies; wrong content types (text, form, multipart without a boundary). Values come from a
 * seeded generator, so a failure repeats exactly. Any 5xx fails the test naming the request.
 * Read routes get the same treatment for their query strings and path parameters. About 5,000
 * write and 1,300 read requests, split over three test files so two test workers share them
 * (each file builds its own world on its own database).
 */
import { ROLE } from "@tideline/shared";
import fc from "fast-check";
import type { InjectOptions } from "fastify";
import { expect } from "vitest";
import { client, createTestApp, ORIGIN, setupInstance, type TestApp } from "../../test/harness.ts";
import { createSession, SESSION_COOKIE } from "../auth/sessions.ts";
import { tokenFor } from "../public-api/test-support.ts";
import { createIssue } from "../routes/issues/test-support.ts";
import { createWorld, projectWithTeam, type World } from "../routes/projects/test-support.ts";

const SEED = 20261125;
/** Random variants per route, on top of the 20–27 fixed ones. */
const RANDOM_PER_ROUTE = 8;

type Route = { method: string; path: string };

/**
 * Every route from Fastify's own route tree (`printRoutes`): each line is a path segment under
 * its parent (4 characters of indentation per level) followed by its methods.
 */
export function routesOf(tree: string): Route[] {
  const out: Route[] = [];
  const stack: string[] = [];
  for (const line of tree.split("\n")) {
    const m = /^((?:[│ ] {3}|[├└]── )*)(.+)$/u.exec(line);
    if (!m?.[2]) continue;
    const depth = [...(m[1] ?? "")].length / 4;
    const node = /^(.*?)(?: \(([A-Z, ]+)\))?$/.exec(m[2]);
    stack.length = depth;
    stack[depth] = node?.[1] ?? "";
    const path = stack.join("");
    for (const method of (node?.[2] ?? "").split(", ").filter(Boolean)) out.push({ method, path });
  }
  return out;
}

type Ids = Record<string, string>;

/** Real values for each path parameter; `:id` depends on the segment before it. */
function paramValue(name: string, before: string, ids: Ids): string {
  if (name === "id") {
    const byParent: Record<string, string> = {
      invitations: ids.invitation ?? "",
      members: ids.memberUser ?? "",
      "issue-drafts": ids.draft ?? "",
      "draft-issues": ids.workspaceDraft ?? "",
      "draft-to-issue": ids.workspaceDraft ?? "",
      issues: ids.issue ?? "",
      epics: ids.issue ?? "",
      notifications: ids.notification ?? "",
    };
    return byParent[before] ?? ids.issue ?? "";
  }
  const byName: Record<string, string> = {
    slug: ids.slug ?? "",
    projectId: ids.project ?? "",
    issueId: ids.issue ?? "",
    identifier: ids.issueKey ?? "",
    cycleId: ids.zero ?? "",
    moduleId: ids.zero ?? "",
    memberId: ids.memberUser ?? "",
    pageId: ids.page ?? "",
    versionId: ids.zero ?? "",
    stateId: ids.state ?? "",
    labelId: ids.label ?? "",
    relatedId: ids.issue2 ?? "",
    linkId: ids.link ?? "",
    commentId: ids.comment ?? "",
    estimateId: ids.estimate ?? "",
    pointId: ids.point ?? "",
    reaction: encodeURIComponent("👍"),
    reactionId: ids.zero ?? "",
    assetId: ids.zero ?? "",
    uid: ids.adminUser ?? "",
    token: "not-a-real-token",
  };
  return byName[name] ?? ids.zero ?? "";
}

/** The public API (/api/v1) takes an X-API-Key instead of the cookie. */
function apiKeyFor(route: Route, ids: Ids): Record<string, string> {
  return route.path.startsWith("/api/v1/") && ids.apiKey ? { "x-api-key": ids.apiKey } : {};
}

/** The route's path with each parameter replaced by `value(name, segmentBefore)`. */
function fill(path: string, value: (name: string, before: string) => string): string {
  const segments = path.split("/");
  return `${segments
    .map((segment, i) => {
      if (!segment.startsWith(":")) return segment;
      const name = segment.split("|")[0]?.slice(1) ?? "";
      return value(name, segments[i - 1] ?? "");
    })
    .join("/")
    .replace(/\/$/, "")}/`;
}

/** A plausible body per route (the base the variants mutate); unknown routes get a generic one. */
function baseBody(route: Route, ids: Ids): Record<string, unknown> {
  const p = route.path;
  const issueForm = {
    name: "Fuzzed item",
    description_html: "<p>hello</p>",
    state_id: ids.state,
    priority: "high",
    assignee_ids: [ids.adminUser],
    label_ids: [ids.label],
    parent_id: null,
    estimate_point: null,
    start_date: "2026-01-01",
    target_date: "2026-02-01",
    sort_order: 1000,
  };
  const table: [RegExp, Record<string, unknown>][] = [
    [/\/(issues|epics|issue-drafts|draft-issues)$/, { ...issueForm, project_id: ids.project }],
    [/\/(issues|epics|issue-drafts|draft-issues)\/:[^/]+$/, issueForm],
    [/\/comments(\/:[^/]+)?$/, { comment_html: "<p>a comment</p>", access: "INTERNAL" }],
    [/\/(issue-links|links)(\/:[^/]+)?$/, { url: "https://example.com/a", title: "A link" }],
    [/\/reactions$/, { reaction: "👍" }],
    [/\/quick-links(\/:[^/]+)?$/, { url: "https://example.com/q", title: "Quick" }],
    [/\/home-preferences\/:[^/]+$/, { is_enabled: false, sort_order: 5 }],
    [/\/issue-relation$/, { relation_type: "blocked_by", issues: [ids.issue2] }],
    [/\/remove-relation$/, { relation_type: "blocked_by", related_issue: ids.issue2 }],
    [/\/sub-issues$/, { sub_issue_ids: [ids.issue2] }],
    [/\/states(\/:[^/]+)?$/, { name: "Fuzz state", color: "#ff0000", group: "started", sequence: 12345 }],
    [/\/issue-labels(\/:[^/]+)?$/, { name: "fuzz label", color: "#00ff00", parent: null, sort_order: 5 }],
    [/\/pages(\/:[^/]+)?$/, { name: "Fuzz page", description_html: "<p>x</p>", access: 0 }],
    [/\/pages\/:[^/]+\/description$/, { description_html: "<p>y</p>" }],
    [/\/pages\/:[^/]+\/access$/, { access: 1 }],
    [/\/pages\/:[^/]+\/move$/, { new_project_id: ids.project }],
    [/\/estimates$/, { estimate: { name: "Fuzz", type: "points" }, estimate_points: [{ value: "1" }, { value: "2" }] }],
    [/\/estimates\/:[^/]+$/, { name: "Fuzz 2", is_active: false }],
    [/\/estimate-points(\/:[^/]+)?$/, { key: 3, value: "5", new_estimate_point_id: null }],
    [/\/bulk-operation-issues$/, { issue_ids: [ids.issue], properties: { priority: "low", state_id: ids.state } }],
    [/\/bulk-(archive|delete|subscribe)-issues$/, { issue_ids: [ids.issue2] }],
    [/\/issue-dates$/, { updates: [{ id: ids.issue, start_date: "2026-01-02", target_date: null }] }],
    [
      /\/user-properties$/,
      { filters: { priority: ["high"] }, display_filters: { layout: "list" }, display_properties: { key: true } },
    ],
    [/\/projects$/, { name: "Fuzz project", identifier: "FUZ", network: 2, description: "d" }],
    [/\/projects\/:[^/]+$/, { name: "Fuzz project 2", description: "d", emoji: null }],
    [/\/projects\/:[^/]+\/members$/, { members: [{ member_id: ids.outsiderUser, role: ROLE.member }] }],
    [/\/members\/:[^/]+$/, { role: ROLE.member }],
    [/\/projects\/join$/, { project_ids: [ids.project] }],
    [/\/user-favorite-projects$/, { project: ids.project }],
    [/^\/api\/workspaces$/, { name: "Fuzz workspace", slug: "fuzz-ws", organization_size: "2-10" }],
    [/^\/api\/workspaces\/:[^/]+$/, { name: "Fuzz workspace 2", timezone: "Europe/Paris" }],
    [/\/invitations$/, { emails: [{ email: "fuzz@example.com", role: ROLE.member }], message: "hi" }],
    [/\/invitations\/:[^/]+(\/join)?$/, { role: ROLE.member, accepted: true }],
    [/\/users\/notifications\/:[^/]+$/, { read_at: new Date().toISOString(), archived_at: null, snoozed_till: null }],
    [/^\/api\/users\/me$/, { first_name: "Fuzz", last_name: "Er", display_name: "fuzz" }],
    [/^\/api\/users\/me\/profile$/, { use_case: "fun", role: "dev", language: "en", theme: { theme: "dark" } }],
    [/^\/api\/users\/me\/(onboard|tour-completed)$/, { is_onboarded: true, is_tour_completed: true }],
    [/\/invitations$/, { invitations: [ids.invitation] }],
    [
      /^\/api\/assets\//,
      { name: "a.png", type: "image/png", size: 100, entity_type: "USER_AVATAR", is_uploaded: true },
    ],
    [/^\/api\/instances/, { instance_name: "Fuzz", email: "a@example.com", password: "x" }],
    [/^\/auth\//, { email: "fuzz@example.com", password: "a password", code: "123456", next_path: "/" }],
  ];
  for (const [pattern, body] of table) if (pattern.test(p)) return body;
  return { name: "fuzz", description: "fuzz", id: ids.issue };
}

/** Apply `f` to every string of `value`, at any depth. */
function mapStrings(value: unknown, f: (s: string) => unknown): unknown {
  if (typeof value === "string") return f(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, f)]));
  }
  return value;
}

function nested(depth: number): unknown {
  let value: unknown = "bottom";
  for (let i = 0; i < depth; i++) value = { name: value, items: [value === "bottom" ? 1 : 0] };
  return value;
}

/** Values that are wrong, odd or extreme for any field. */
const weirdValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom("", " ", "\u0000", "a\u0000b", "\ud800", "\udfff\ud800", "null", "undefined", "NaN", "-1"),
  fc.constantFrom("00000000-0000-0000-0000-000000000000", "not-a-uuid", "1e400", "9999-99-99", "2026-02-30"),
  fc.constantFrom(0, -1, 1.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 1e308, -1e308, Number.MIN_VALUE),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.constant("x".repeat(300_000)),
  fc.array(fc.oneof(fc.string({ unit: "binary", maxLength: 10 }), fc.integer(), fc.constant(null)), { maxLength: 5 }),
  fc.dictionary(fc.string({ unit: "binary", maxLength: 8 }), fc.oneof(fc.string({ unit: "binary" }), fc.integer())),
  fc.constant({ nested: { deeper: ["\u0000"] } }),
  fc.constant(Array.from({ length: 2000 }, (_, i) => i)),
);

/** One random mutation of the base body: 1–3 of its keys (or new ones) get weird values. */
const mutation = (base: Record<string, unknown>) =>
  fc
    .array(
      fc.tuple(
        fc.oneof(
          fc.constantFrom(...Object.keys(base), "id", "name", "project_id"),
          fc.string({ unit: "binary", maxLength: 12 }),
        ),
        weirdValue,
      ),
      { minLength: 1, maxLength: 3 },
    )
    .map((changes) => ({ ...base, ...Object.fromEntries(changes) }));

/** Query keys the list and search routes read, plus a few they do not. */
const QUERY_KEYS = [
  "cursor",
  "per_page",
  "order_by",
  "group_by",
  "sub_group_by",
  "search",
  "type",
  "updated_at__gt",
  "created_at__gt",
  "expand",
  "fields",
  "project_ids",
  "priority",
  "state",
  "state_group",
  "assignees",
  "labels",
  "created_by",
  "subscriber",
  "project",
  // analytics
  "tab",
  "x_axis",
  "y_axis",
  "date_filter",
  "end_date",
  "cycle_id",
  "module_id",
  "start_date",
  "target_date",
  "description",
  "sub_issue",
  "archived",
  "name",
  "issue_id",
  "parent",
  "issue_relation",
  "mentioned",
  "snoozed",
  "read",
  "layout",
  "cycle",
  "module",
  "mentions",
  "show_empty_groups",
  "filters",
  "display_filters",
  "zzz_unknown",
];

const QUERY_VALUES = [
  "",
  " ",
  "-1",
  "0",
  "1.5",
  "1e400",
  "99999999999999999999",
  "abc",
  "None",
  "null",
  ",,,",
  ";;",
  "2026-13-45",
  "2026-02-30;after",
  "1_weeks;after;fromnow",
  "9999999_months;before;ago",
  "100:0:0",
  "0:-1:0",
  "a:b:c",
  "10:99999999999:0",
  "50:0:0:0",
  "-created_at",
  "--name",
  "state__group",
  "labels__id",
  "true",
  "false",
  "00000000-0000-0000-0000-000000000000",
  "not-a-uuid,also-not",
  "%F0%9F%9A%80",
  "%ED%A0%80",
  "%E0%A4%A",
  "a%00b",
  '{"a":1}',
  "[1,2]",
  "<script>",
  "'; drop table issues; --",
];

/** A query string of 1–5 known keys (sometimes repeated) with odd values. */
const queryString: fc.Arbitrary<string> = fc
  .array(fc.tuple(fc.constantFrom(...QUERY_KEYS), fc.constantFrom(...QUERY_VALUES)), { minLength: 1, maxLength: 5 })
  .map((pairs) => pairs.map(([k, v]) => `${k}=${v.includes("%") ? v : encodeURIComponent(v)}`).join("&"));

const RANDOM_QUERIES_PER_ROUTE = 10;

/** The message of http/input.ts databaseInputError: input that only the database refused. */
const DATABASE_REFUSED = "The request contains a value that cannot be stored.";

type Request = { label: string; url: string; payload?: InjectOptions["payload"]; headers?: Record<string, string> };

function variants(route: Route, ids: Ids, seed: number): Request[] {
  const url = fill(route.path, (name, before) => paramValue(name, before, ids));
  const base = baseBody(route, ids);
  const json = (label: string, body: unknown, at = url): Request => ({
    label,
    url: at,
    payload: JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });
  const withParams = (value: string) => fill(route.path, () => value);
  const hasParams = route.path.includes(":");
  const out: Request[] = [
    json("base body", base),
    { label: "no body", url },
    json("empty object", {}),
    json("null", null),
    json("array", [base]),
    json("string", "just a string"),
    json("number", 42),
    { label: "invalid JSON", url, payload: '{"name": ', headers: { "content-type": "application/json" } },
    { label: "text/plain", url, payload: "name=x", headers: { "content-type": "text/plain" } },
    {
      label: "form with NUL",
      url,
      payload: "name=a%00b&email=x%00",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    },
    {
      label: "multipart without boundary",
      url,
      payload: "--x\r\n\r\n",
      headers: { "content-type": "multipart/form-data" },
    },
    json(
      "NUL in every string",
      mapStrings(base, (s) => `${s}\u0000`),
    ),
    json(
      "lone surrogate in every string",
      mapStrings(base, (s) => `${s}\ud83d`),
    ),
    json(
      "huge strings",
      mapStrings(base, () => "y".repeat(300_000)),
    ),
    json(
      "empty strings",
      mapStrings(base, () => ""),
    ),
    json("unknown keys", { ...base, zzz_unknown: 1, tempId: "t-1", id: ids.issue, "a\u0000": 1 }),
    json("arrays for every value", Object.fromEntries(Object.keys(base).map((k) => [k, [base[k]]]))),
    json("objects for every value", Object.fromEntries(Object.keys(base).map((k) => [k, { value: base[k] }]))),
    json("deeply nested", { ...base, name: nested(2000) }),
    json("NUL in query", base, `${url}?search=a%00b&name=%00`),
  ];
  if (hasParams) {
    out.push(
      json("NUL path params", base, withParams("%00")),
      json("NUL inside path params", base, withParams("ab%00cd")),
      json("invalid uuid path params", base, withParams("not-a-uuid")),
      json("zero uuid path params", base, withParams("00000000-0000-0000-0000-000000000000")),
      json("lone surrogate path params", base, withParams("%ED%A0%80")),
      json("bad percent path params", base, withParams("%E0%A4%A")),
      json("long path params", base, withParams("z".repeat(99))),
    );
  }
  const random = fc.sample(mutation(base), { seed, numRuns: RANDOM_PER_ROUTE });
  random.forEach((body, i) => {
    out.push(json(`random #${i}`, body));
  });
  return out;
}

/** Routes that end the caller's session or membership go last, the account itself at the very end. */
function order(route: Route): number {
  if (route.method === "DELETE" && route.path === "/api/users/me") return 4;
  if (route.method === "DELETE" && route.path === "/api/workspaces/:slug") return 3;
  if (route.method === "DELETE") return 2 - route.path.split("/").length / 100;
  if (/leave|archive|sign-out|password|deactivate/.test(route.path)) return 1;
  return 0;
}

/** The app, its people and the real ids of one object of each kind, on a database of its own. */
export type FuzzWorld = { t: TestApp; w: World; ids: Ids };

/** Builds the world every fuzz file runs against: one of each object, made through the API. */
export async function fuzzWorld(): Promise<FuzzWorld> {
  const ids: Ids = { zero: "00000000-0000-0000-0000-000000000000" };
  // The public API's routes (/api/v1) are called with an API key; no rate limit in the way.
  const t = await createTestApp({ API_KEY_RATE_LIMIT: "1000000/minute" });
  const w = await createWorld(t);
  await setupInstance(t.db, w.admin);
  const project = await projectWithTeam(t, w);
  const api = client(t.app, w.admin);
  const base = `/api/workspaces/${w.slug}/projects/${project.id}`;
  const issue = await createIssue(t, w.admin, project.url, { name: "Fuzz target" });
  const issue2 = await createIssue(t, w.admin, project.url, { name: "Fuzz target 2" });
  const ok = async (res: Awaited<ReturnType<typeof api.post>>) => {
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json();
  };
  const state = await ok(await api.post(`${base}/states/`, { name: "Fuzz", color: "#112233", group: "started" }));
  const label = await ok(await api.post(`${base}/issue-labels/`, { name: "fuzzy" }));
  const comment = await ok(await api.post(`${base}/issues/${issue.id}/comments/`, { comment_html: "<p>c</p>" }));
  const link = await ok(await api.post(`${base}/issues/${issue.id}/issue-links/`, { url: "https://example.com" }));
  const page = await ok(await api.post(`${base}/pages/`, { name: "Fuzz page" }));
  const estimate = await ok(
    await api.post(`${base}/estimates/`, {
      estimate: { name: "Points", type: "points" },
      estimate_points: [{ value: "1" }, { value: "2" }],
    }),
  );
  const draft = await ok(await api.post(`${base}/issue-drafts/`, { name: "Draft" }));
  const workspaceDraft = await ok(
    await api.post(`/api/workspaces/${w.slug}/draft-issues/`, { name: "WS draft", project_id: project.id }),
  );
  const invitation = await ok(
    await api.post(`/api/workspaces/${w.slug}/invitations/`, { emails: [{ email: "fuzz-invitee@example.com" }] }),
  );
  Object.assign(ids, {
    slug: w.slug,
    project: project.id,
    issue: issue.id,
    issue2: issue2.id,
    state: state.id,
    label: label.id,
    comment: comment.id,
    link: link.id,
    page: page.id,
    estimate: estimate.id ?? estimate.estimate?.id,
    point: (estimate.points ?? estimate.estimate_points ?? [])[0]?.id,
    draft: draft.id,
    workspaceDraft: workspaceDraft.id,
    invitation: (Array.isArray(invitation) ? invitation[0] : (invitation.invitations?.[0] ?? invitation))?.id,
    adminUser: w.admin.id,
    memberUser: w.member.id,
    outsiderUser: w.outsider.id,
    apiKey: (await tokenFor(t, w.admin, w.workspaceId)).key,
    issueKey: `${project.identifier}-1`,
  });
  return { t, w, ids };
}

/** Every read route with malformed query strings and path parameters: no 5xx, nothing refused only by SQL. */
export async function fuzzReadRoutes({ t, w, ids }: FuzzWorld): Promise<void> {
  const routes = routesOf(t.app.printRoutes({ commonPrefix: false })).filter(
    (r) => r.method === "GET" && !r.path.startsWith("/live") && r.path !== "/*",
  );
  expect(routes.length).toBeGreaterThan(50);
  const token = await createSession(t.db, w.admin.id, {});
  const adminToken = await createSession(t.db, w.admin.id, { isAdmin: true });
  let sent = 0;
  const failures: string[] = [];
  for (const [index, route] of routes.entries()) {
    const url = fill(route.path, (name, before) => paramValue(name, before, ids));
    const urls = [
      ...fc.sample(queryString, { seed: SEED + index, numRuns: RANDOM_QUERIES_PER_ROUTE }).map((q) => `${url}?${q}`),
      `${url}?${QUERY_KEYS.map((k) => `${k}=${encodeURIComponent("x".repeat(5000))}`).join("&")}`,
    ];
    if (route.path.includes(":")) {
      urls.push(
        fill(route.path, () => "not-a-uuid"),
        fill(route.path, () => "%00"),
        fill(route.path, () => "%ED%A0%80"),
      );
    }
    const cookie = `${SESSION_COOKIE}=${route.path.startsWith("/api/instances") ? adminToken : token}`;
    for (const at of urls) {
      const res = await t.app.inject({
        method: "GET",
        url: at,
        headers: { origin: ORIGIN, cookie, ...apiKeyFor(route, ids) },
      });
      sent++;
      if (res.body.includes(DATABASE_REFUSED)) failures.push(`GET ${at.slice(0, 200)} → refused only by the database`);
      if (res.statusCode >= 500) failures.push(`GET ${at.slice(0, 200)} → ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
  }
  console.log(`fuzz: ${sent} requests, ${routes.length} read routes, 5xx: ${failures.length} (seed ${SEED})`);
  expect(failures).toEqual([]);
}

/**
 * The write routes (POST/PUT/PATCH/DELETE) of shard `shard` of `shards`: the routes in their
 * order (those that end the session or the workspace last), every `shards`-th one from `shard`.
 * Each route's variants keep the seed they had in one run (SEED + its index among all write
 * routes), so a failure repeats whatever the split.
 */
export async function fuzzWriteRoutes({ t, w, ids }: FuzzWorld, shard: number, shards: number): Promise<void> {
  const all = routesOf(t.app.printRoutes({ commonPrefix: false }))
    .filter((r) => ["POST", "PUT", "PATCH", "DELETE"].includes(r.method))
    .sort((a, b) => order(a) - order(b));
  // The router is the source: a parse that found nothing would make this test pass vacuously.
  expect(all.length).toBeGreaterThan(100);
  const routes = [...all.entries()].filter(([index]) => index % shards === shard);

  const started = Date.now();
  let sent = 0;
  const failures: string[] = [];
  const reachedDatabase: string[] = [];
  for (const [index, route] of routes) {
    // A fresh session per route: a sign-out or password change among the variants ends it.
    const token = await createSession(t.db, w.admin.id, {});
    const adminToken = await createSession(t.db, w.admin.id, { isAdmin: true });
    const cookie = `${SESSION_COOKIE}=${route.path.startsWith("/api/instances") ? adminToken : token}`;
    for (const request of variants(route, ids, SEED + index)) {
      const res = await t.app.inject({
        method: route.method as InjectOptions["method"],
        url: request.url,
        payload: request.payload,
        headers: { origin: ORIGIN, cookie, ...apiKeyFor(route, ids), ...request.headers },
      });
      sent++;
      // The error handler's last line of defence answered: the route let bad input reach SQL.
      if (res.body.includes(DATABASE_REFUSED)) {
        reachedDatabase.push(`${route.method} ${request.url.slice(0, 160)} [${request.label}]`);
      }
      if (res.statusCode >= 500) {
        failures.push(
          `${route.method} ${request.url.slice(0, 160)} [${request.label}] → ${res.statusCode} ${res.body.slice(0, 200)}`,
        );
      }
    }
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `fuzz: ${sent} requests, ${routes.length} of ${all.length} write routes (shard ${shard + 1}/${shards}), 5xx: ${failures.length}, refused only by the database: ${reachedDatabase.length} (seed ${SEED}, ${seconds} s)`,
  );
  expect(failures).toEqual([]);
  expect(reachedDatabase).toEqual([]);
}
