/**
 * The list's filters in SQL agree with the shared evaluator (matchesFilters) the client uses:
 * random filters over random items give the same set both ways. Plus one example per filter.
 */
import {
  addDays,
  calendarDate,
  type DateTerm,
  type FilterableIssue,
  type IssueFilters,
  matchesFilters,
  PRIORITIES,
  STATE_GROUPS,
  serializeIssueFilters,
} from "@tideline/shared";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../../test/harness.ts";
import { issueSubscribers, issues, states } from "../../db/schema.ts";
import type { PresentedIssue } from "./query.ts";
import { anotherProject, createFixture, createLabel, type Fixture } from "./test-support.ts";

let t: TestApp;
let f: Fixture;
let url: string;
let items: (PresentedIssue & { subscriber_ids: string[] })[];
let stateIds: string[];
let labelIds: string[];
let people: string[];
const today = calendarDate(new Date(), "UTC");

/** A deterministic pseudo-random sequence, so the data set is the same on every run. */
function rng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
  const p = await anotherProject(t, f);
  url = `${p.url}/issues/`;
  stateIds = (await t.db.select({ id: states.id }).from(states).where(eq(states.projectId, p.id))).map((s) => s.id);
  labelIds = [await createLabel(t, p.id), await createLabel(t, p.id), await createLabel(t, p.id)];
  people = [f.w.admin.id, f.w.member.id, f.w.guest.id];
  const rand = rng(42);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)] as T;
  const subset = <T>(list: readonly T[]) => list.filter(() => rand() < 0.4);
  const maybeDate = () => (rand() < 0.3 ? null : addDays(today, Math.floor(rand() * 140) - 70));
  for (let i = 0; i < 36; i++) {
    let start = maybeDate();
    let target = maybeDate();
    if (start && target && start > target) [start, target] = [target, start];
    const res = await client(t.app, f.w.admin).post(url, {
      name: `Item ${i}`,
      priority: pick(PRIORITIES),
      state_id: pick(stateIds),
      assignee_ids: subset(people),
      label_ids: subset(labelIds),
      start_date: start,
      target_date: target,
    });
    expect(res.statusCode, res.body).toBe(201);
    const item = res.json() as PresentedIssue;
    const creator = pick(people);
    await t.db.update(issues).set({ createdById: creator }).where(eq(issues.id, item.id));
    // Creation subscribed the admin and the assignees; add a random extra follower.
    if (rand() < 0.5) {
      await t.db
        .insert(issueSubscribers)
        .values({ issueId: item.id, subscriberId: pick(people), workspaceId: f.w.workspaceId, projectId: p.id })
        .onConflictDoNothing();
    }
  }
  const res = await client(t.app, f.w.admin).get(`${url}?per_page=100`);
  const subs = await t.db.select().from(issueSubscribers).where(eq(issueSubscribers.projectId, p.id));
  items = (res.json().results as PresentedIssue[]).map((i) => ({
    ...i,
    subscriber_ids: subs.filter((s) => s.issueId === i.id).map((s) => s.subscriberId),
  }));
  expect(items).toHaveLength(36);
});
afterAll(() => t.close());

async function serverIds(filters: IssueFilters): Promise<string[]> {
  const query = new URLSearchParams({ ...serializeIssueFilters(filters), per_page: "100" });
  const res = await client(t.app, f.w.admin).get(`${url}?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().results as PresentedIssue[]).map((i) => i.id).sort();
}

const localIds = (filters: IssueFilters) =>
  items
    .filter((i) => matchesFilters(i as FilterableIssue, filters, today))
    .map((i) => i.id)
    .sort();

describe("filters", () => {
  it("SQL and matchesFilters select the same items for random filters", async () => {
    const someOf = <T>(values: readonly T[]) => fc.subarray([...values], { minLength: 1 });
    const dateTerm: fc.Arbitrary<DateTerm> = fc.oneof(
      fc.record({
        kind: fc.constant("absolute" as const),
        op: fc.constantFrom("after" as const, "before" as const, "on" as const),
        date: fc.integer({ min: -80, max: 80 }).map((d) => addDays(today, d)),
      }),
      fc.record({
        kind: fc.constant("relative" as const),
        op: fc.constantFrom("after" as const, "before" as const),
        amount: fc.integer({ min: 1, max: 2 }),
        unit: fc.constantFrom("weeks" as const, "months" as const),
        direction: fc.constantFrom("fromnow" as const, "ago" as const),
      }),
    );
    const byKey: Record<string, fc.Arbitrary<unknown>> = {
      priority: someOf(PRIORITIES),
      state: someOf([...stateIds, "None"]),
      state_group: someOf(STATE_GROUPS),
      assignees: someOf([...people, "None"]),
      created_by: someOf(people),
      labels: someOf([...labelIds, "None"]),
      subscriber: someOf(people),
      cycle: someOf(["None", "00000000-0000-4000-8000-000000000000"]),
      start_date: fc.array(dateTerm, { minLength: 1, maxLength: 2 }),
      target_date: fc.array(dateTerm, { minLength: 1, maxLength: 2 }),
    };
    // One to three filters at a time, so most combinations still select something.
    const filters = fc
      .subarray(Object.keys(byKey), { minLength: 1, maxLength: 3 })
      .chain((keys) => fc.record(Object.fromEntries(keys.map((k) => [k, byKey[k] as fc.Arbitrary<unknown>]))))
      .map((record) => record as IssueFilters);
    let nonEmpty = 0;
    await fc.assert(
      fc.asyncProperty(filters, async (chosen) => {
        const local = localIds(chosen);
        if (local.length > 0) nonEmpty++;
        expect(await serverIds(chosen)).toEqual(local);
      }),
      { numRuns: 80, seed: 7 },
    );
    expect(nonEmpty).toBeGreaterThan(20);
  });

  it("applies each filter (examples)", async () => {
    const check = async (filters: IssueFilters, expectNonEmpty = true) => {
      const local = localIds(filters);
      if (expectNonEmpty) expect(local.length, JSON.stringify(filters)).toBeGreaterThan(0);
      expect(local.length).toBeLessThan(items.length);
      expect(await serverIds(filters)).toEqual(local);
    };
    await check({ priority: ["urgent", "high"] });
    await check({ state: [stateIds[0] as string] });
    await check({ state_group: ["started"] });
    await check({ assignees: ["None"] });
    await check({ assignees: [f.w.member.id] });
    await check({ created_by: [f.w.guest.id] });
    await check({ labels: [labelIds[0] as string, labelIds[1] as string] });
    await check({ labels: ["None"] });
    await check({ subscriber: [f.w.member.id] });
    await check({
      start_date: [
        { kind: "absolute", op: "after", date: addDays(today, -30) },
        { kind: "absolute", op: "before", date: addDays(today, 30) },
      ],
    });
    await check({ target_date: [{ kind: "relative", op: "after", amount: 1, unit: "weeks", direction: "fromnow" }] });
    await check({ target_date: [{ kind: "relative", op: "before", amount: 1, unit: "months", direction: "ago" }] });
    await check({ module: ["00000000-0000-4000-8000-000000000000"] }, false);
    // Not built yet: accepted, no effect.
    expect(await serverIds({ mentions: [f.w.member.id], issue_type: ["x"] })).toHaveLength(items.length);
    expect(await serverIds({ cycle: ["None"] })).toHaveLength(items.length);
  });

  it("reads the query forms of the spec", async () => {
    const d = items.find((i) => i.target_date)?.target_date as string;
    const res = await client(t.app, f.w.admin).get(`${url}?target_date=${d};after,${d};before&per_page=100`);
    expect(res.statusCode).toBe(200);
    const got = (res.json().results as PresentedIssue[]).map((i) => i.target_date);
    expect(got.length).toBeGreaterThan(0);
    expect(got.every((v) => v === d)).toBe(true);
    const rel = await client(t.app, f.w.admin).get(`${url}?start_date=2_months;before;fromnow&per_page=100`);
    expect(rel.statusCode).toBe(200);
  });
});
