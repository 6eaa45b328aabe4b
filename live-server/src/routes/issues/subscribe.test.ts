import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../../test/harness.ts";
import { createFixture, createIssue, eventsOf, type Fixture } from "./test-support.ts";

let t: TestApp;
let f: Fixture;
beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
});
afterAll(() => t.close());

describe("subscribe/", () => {
  it("reports, follows and stops following, with events", async () => {
    const item = await createIssue(t, f.w.admin, f.project.url);
    const url = `${f.project.url}/issues/${item.id}/subscribe/`;
    expect((await client(t.app, f.w.member).get(url)).json()).toEqual({ subscribed: false });
    expect((await client(t.app, f.w.admin).get(url)).json()).toEqual({ subscribed: true });
    const on = await client(t.app, f.w.member, { "x-client-mutation-id": "m-sub" }).post(url);
    expect(on.json()).toEqual({ subscribed: true });
    expect((await client(t.app, f.w.member).get(url)).json()).toEqual({ subscribed: true });
    const [created] = eventsOf(f, "subscription.created", item.id);
    expect(created).toMatchObject({ client_mutation_id: "m-sub", data: { subscriber_id: f.w.member.id } });
    await client(t.app, f.w.member).post(url);
    expect(eventsOf(f, "subscription.created", item.id)).toHaveLength(1);
    const off = await client(t.app, f.w.member).delete(url);
    expect(off.json()).toEqual({ subscribed: false });
    expect(eventsOf(f, "subscription.deleted", item.id)).toHaveLength(1);
  });

  it("answers 401 and 404 (other workspace; a restricted guest's unseen item)", async () => {
    const item = await createIssue(t, f.w.admin, f.project.url);
    const url = `${f.project.url}/issues/${item.id}/subscribe/`;
    expect((await client(t.app, null).post(url)).statusCode).toBe(401);
    expect((await client(t.app, f.w.stranger).post(url)).statusCode).toBe(404);
    expect((await client(t.app, f.w.guest).post(url)).statusCode).toBe(404);
    expect((await client(t.app, f.w.member).post(`${f.project.url}/issues/nope/subscribe/`)).statusCode).toBe(404);
  });
});
