/**
 * Webhook delivery with a real HTTP receiver on loopback (WEBHOOK_ALLOW_PRIVATE on): a work-item
 * change reaches the receiver signed (the HMAC verifies on the exact body), a 500 is retried,
 * a delivery given up marks the webhook failing and a success clears it, a redeliver sends the
 * same body, nothing is lost when the server stops between commit and delivery, and a redirect
 * is never followed. With the setting off, loopback, private, link-local and metadata addresses
 * (and names resolving to them) are refused on the connection itself.
 */
import { createHmac } from "node:crypto";
import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { client, createTestApp, createTestDatabase, ORIGIN, type TestApp } from "../../test/harness.ts";
import { buildApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import type { Database } from "../db/client.ts";
import { jobs, webhooks } from "../db/schema.ts";
import { transactionWithEvents } from "../events/bus.ts";
import { createProject, createWorld, type World } from "../routes/projects/test-support.ts";
import { webhookDeliveryOf } from "./delivery.ts";
import { postWebhook } from "./http.ts";

type Received = { path: string; headers: IncomingHttpHeaders; body: string };

/** A receiver on 127.0.0.1: records every request; `answer` decides the status per path. */
async function startReceiver(
  answer: (path: string, count: number) => { status: number; headers?: Record<string, string> },
) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "/";
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const { status, headers } = answer(path, received.filter((r) => r.path === path).length);
      res.writeHead(status, { "content-type": "text/plain", ...headers });
      res.end(status < 300 ? "thanks" : `no (${status})`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    received,
    port,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    on: (path: string) => received.filter((r) => r.path === path),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Wait for what a test checks (never a fixed sleep): `check` throws until it holds. */
const until = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 15_000, interval: 20 });

const sign = (secret: string, body: string) => createHmac("sha256", secret).update(body).digest("hex");

let t: TestApp;
let w: World;
let r: Receiver;
let projectId: string;

beforeAll(async () => {
  r = await startReceiver((path, count) => {
    if (path.startsWith("/fail-once") && count === 1) return { status: 500 };
    if (path.startsWith("/always-500")) return { status: 500 };
    if (path === "/redirect-metadata") return { status: 302, headers: { location: "http://169.254.169.254/" } };
    if (path.startsWith("/redirect")) return { status: 302, headers: { location: r.url("/redirected") } };
    return { status: 200 };
  });
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: "true" });
  // Retries within milliseconds instead of 10 s doubling (the policy is the app's own).
  Object.assign(webhookDeliveryOf(t.app.ctx).retry, { firstDelayMs: 20, maxDelayMs: 50 });
  w = await createWorld(t);
  projectId = (await createProject(t, w.admin, w.slug)).id;
});
afterAll(async () => {
  await t.close();
  await r.close();
});

const hooks = (slug = w.slug) => `/api/workspaces/${slug}/webhooks/`;

async function createHook(app: TestApp["app"], path: string, body: Record<string, unknown> = {}) {
  const res = await client(app, w.admin).post(hooks(), { url: r.url(path), issue: true, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; secret_key: string };
}

async function createIssue(app: TestApp["app"], name: string) {
  const res = await client(app, w.admin).post(`/api/workspaces/${w.slug}/projects/${projectId}/issues/`, { name });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}

async function logsOf(app: TestApp["app"], hookId: string) {
  const res = await client(app, w.admin).get(`${hooks()}${hookId}/logs/`);
  expect(res.statusCode).toBe(200);
  return res.json().results as Array<Record<string, unknown>>;
}

describe("delivery", () => {
  it("a new project reaches a webhook that wants projects: event project, action created, the project as data", async () => {
    await createHook(t.app, "/projects", { issue: false, project: true });
    const created = await createProject(t, w.admin, w.slug);
    const [got] = await until(() => {
      const list = r.on("/projects");
      if (!list.length) throw new Error("not delivered yet");
      return list;
    });
    expect(got?.headers["x-webhook-event"]).toBe("project");
    expect(JSON.parse(got?.body ?? "{}")).toMatchObject({
      event: "project",
      action: "created",
      data: { id: created.id, identifier: created.identifier, name: created.name, workspace: w.workspaceId },
    });
  });

  it("sends a signed delivery whose HMAC verifies on the exact body, and logs it", async () => {
    const hook = await createHook(t.app, "/signed");
    const issue = await createIssue(t.app, "Signed delivery");
    const [got] = await until(() => {
      const list = r.on("/signed");
      if (!list.length) throw new Error("not delivered yet");
      return list;
    });
    if (!got) throw new Error("no delivery");
    expect(got.headers["x-webhook-signature"]).toBe(sign(hook.secret_key, got.body));
    expect(got.headers["user-agent"]).toBe("Tideline-Webhook");
    expect(got.headers["x-webhook-event"]).toBe("issue");
    expect(got.headers["x-webhook-delivery-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(got.headers["content-type"]).toBe("application/json");
    const body = JSON.parse(got.body);
    expect(body).toMatchObject({
      event: "issue",
      action: "created",
      webhook_id: hook.id,
      workspace_id: w.workspaceId,
      data: { id: issue.id, name: "Signed delivery" },
      activity: { actor: { id: w.admin.id, display_name: w.admin.displayName } },
    });

    const logs = await until(async () => {
      const list = await logsOf(t.app, hook.id);
      if (!list.length) throw new Error("no log yet");
      return list;
    });
    expect(logs[0]).toMatchObject({
      status: "success",
      attempt: 1,
      response_status: 200,
      response_body: "thanks",
      error: null,
      event: "issue",
      action: "created",
      delivery_id: got.headers["x-webhook-delivery-id"],
      request_body: got.body,
    });

    // A later update and a delete; events the webhook did not choose (comments) are not sent.
    await client(t.app, w.admin).patch(`/api/workspaces/${w.slug}/projects/${projectId}/issues/${issue.id}/`, {
      name: "Renamed",
    });
    await client(t.app, w.admin).post(`/api/workspaces/${w.slug}/projects/${projectId}/issues/${issue.id}/comments/`, {
      comment_html: "<p>hello</p>",
    });
    await client(t.app, w.admin).delete(`/api/workspaces/${w.slug}/projects/${projectId}/issues/${issue.id}/`);
    const actions = await until(() => {
      const list = r.on("/signed").map((x) => JSON.parse(x.body) as { event: string; action: string; data: unknown });
      if (!list.some((x) => x.action === "deleted")) throw new Error("delete not delivered yet");
      return list;
    });
    expect(actions.every((x) => x.event === "issue")).toBe(true);
    expect(actions.find((x) => x.action === "updated")?.data).toMatchObject({ id: issue.id, name: "Renamed" });
    expect(actions.find((x) => x.action === "deleted")?.data).toEqual({ id: issue.id });
  });

  it("retries after a 500 (same delivery id) and logs both attempts", async () => {
    const hook = await createHook(t.app, "/fail-once");
    await createIssue(t.app, "Retried");
    const attempts = await until(() => {
      const list = r.on("/fail-once");
      if (list.length < 2) throw new Error("no retry yet");
      return list;
    });
    expect(attempts[0]?.headers["x-webhook-delivery-id"]).toBe(attempts[1]?.headers["x-webhook-delivery-id"]);
    expect(attempts[0]?.body).toBe(attempts[1]?.body);
    const logs = await until(async () => {
      const list = await logsOf(t.app, hook.id);
      if (list.length < 2) throw new Error("logs not written yet");
      return list;
    });
    expect(logs.map((l) => [l.status, l.attempt, l.response_status])).toEqual([
      ["success", 2, 200],
      ["failed", 1, 500],
    ]);
    expect(logs[1]?.error).toBe("The receiver answered 500");
    expect(logs[1]?.response_body).toBe("no (500)");
  });

  it("marks the webhook failing once retries give up; a later success clears it", async () => {
    const delivery = webhookDeliveryOf(t.app.ctx);
    const window = delivery.retry.windowMs;
    delivery.retry.windowMs = 0; // the first failure is past the window: give up at once
    try {
      const hook = await createHook(t.app, "/always-500");
      await createIssue(t.app, "Given up");
      const failing = await until(async () => {
        const res = await client(t.app, w.admin).get(`${hooks()}${hook.id}/`);
        if (!res.json().failing) throw new Error("not failing yet");
        return res.json();
      });
      expect(failing).toMatchObject({
        failing: true,
        is_active: true,
        last_failure_reason: "The receiver answered 500",
      });
      expect(typeof failing.last_failure_at).toBe("string");
      const listed = (await client(t.app, w.admin).get(hooks())).json().find((h: { id: string }) => h.id === hook.id);
      expect(listed.failing).toBe(true);

      // The admin points it at a working URL; the next delivery succeeds and clears the state.
      await client(t.app, w.admin).patch(`${hooks()}${hook.id}/`, { url: r.url("/recovered") });
      await createIssue(t.app, "Recovered");
      await until(async () => {
        const res = await client(t.app, w.admin).get(`${hooks()}${hook.id}/`);
        if (res.json().failing) throw new Error("still failing");
        expect(res.json()).toMatchObject({ last_failure_at: null, last_failure_reason: null });
      });
    } finally {
      delivery.retry.windowMs = window;
    }
  });

  it("redeliver sends the logged body again under a new delivery id", async () => {
    const hook = await createHook(t.app, "/redeliver");
    await createIssue(t.app, "Redelivered");
    const [log] = await until(async () => {
      const list = await logsOf(t.app, hook.id);
      if (!list.length) throw new Error("no log yet");
      return list;
    });
    const res = await client(t.app, w.admin).post(`${hooks()}${hook.id}/logs/${log?.id}/redeliver/`);
    expect(res.statusCode).toBe(202);
    const both = await until(() => {
      const list = r.on("/redeliver");
      if (list.length < 2) throw new Error("not redelivered yet");
      return list;
    });
    expect(both[1]?.body).toBe(both[0]?.body);
    expect(both[1]?.headers["x-webhook-delivery-id"]).toBe(res.json().delivery_id);
    expect(both[1]?.headers["x-webhook-signature"]).toBe(sign(hook.secret_key, both[1]?.body ?? ""));
  });

  it("never follows a redirect: the 3xx is a failed delivery, logged with its Location", async () => {
    const delivery = webhookDeliveryOf(t.app.ctx);
    const window = delivery.retry.windowMs;
    delivery.retry.windowMs = 0;
    try {
      const hook = await createHook(t.app, "/redirect");
      await createIssue(t.app, "Redirected");
      const [log] = await until(async () => {
        const list = await logsOf(t.app, hook.id);
        if (!list.length) throw new Error("no log yet");
        return list;
      });
      expect(log).toMatchObject({ status: "failed", response_status: 302 });
      expect(String(log?.error)).toContain(`Redirect not followed (302 to ${r.url("/redirected")})`);
      // The log is written once the exchange is over: a followed redirect would be here by now.
      expect(r.on("/redirected")).toHaveLength(0);
    } finally {
      delivery.retry.windowMs = window;
    }
  });

  it("sends nothing to a switched-off webhook", async () => {
    const hook = await createHook(t.app, "/off");
    await client(t.app, w.admin).patch(`${hooks()}${hook.id}/`, { is_active: false });
    const on = await createHook(t.app, "/on");
    await createIssue(t.app, "Only to the active one");
    await until(() => {
      if (!r.on("/on").length) throw new Error("not delivered yet");
    });
    await t.app.ctx.jobs.kick();
    expect(r.on("/off")).toHaveLength(0);
    expect((await logsOf(t.app, hook.id)).length).toBe(0);
    expect(on.id).toBeTruthy();
  });
});

describe("the outbox", () => {
  it("writes the delivery jobs in the change's own transaction: a rolled-back change leaves none", async () => {
    const hook = await createHook(t.app, "/outbox", { issue: false, cycle: true });
    const { db, events } = t.app.ctx;
    const origin = { actorId: w.admin.id, clientMutationId: null };
    const scope = { workspaceId: w.workspaceId, projectId, entityId: crypto.randomUUID() };
    const queued = async (tx: Pick<typeof db, "select"> = db) =>
      (await tx.select().from(jobs).where(sql`${jobs.payload}->>'webhook_id' = ${hook.id}`)).length;
    await expect(
      transactionWithEvents(db, events, origin, async (_tx, emit) => {
        emit("cycle.created", scope, { id: scope.entityId, name: "Rolled back" });
        throw new Error("the change fails");
      }),
    ).rejects.toThrow("the change fails");
    expect(await queued()).toBe(0);
    // Events the webhook did not ask for, and personal events, make no job either.
    await transactionWithEvents(db, events, origin, async (_tx, emit) => {
      emit("issue.created", scope, { id: scope.entityId });
      emit("sticky.created", scope, { id: scope.entityId });
    });
    expect(await queued()).toBe(0);
    // The job is in the change's transaction before it commits (a later commit hook sees it there).
    let inside = -1;
    const off = events.onBeforeCommit(async (tx) => {
      inside = await queued(tx);
    });
    try {
      await transactionWithEvents(db, events, origin, async (_tx, emit) => {
        emit("cycle.created", scope, { id: scope.entityId, name: "Committed" });
      });
    } finally {
      off();
    }
    expect(inside).toBe(1);
    await until(() => {
      const got = r.on("/outbox");
      if (!got.length) throw new Error("not delivered yet");
      expect(JSON.parse(got[0]?.body ?? "{}")).toMatchObject({
        event: "cycle",
        action: "created",
        data: { name: "Committed" },
      });
    });
  });
});

describe("nothing lost across a restart", () => {
  it("a change committed while the worker is stopped is delivered by the next server on the same database", async () => {
    const database: Database = await createTestDatabase();
    const config = loadConfig({
      DATA_DIR: `${process.env.TMPDIR ?? "/tmp"}/tideline-webhook-restart-${Date.now()}`,
      SECRET_KEY: "test-secret-key-that-is-long-enough-1234567890",
      APP_BASE_URL: ORIGIN,
      LOG_LEVEL: "silent",
      WEBHOOK_ALLOW_PRIVATE: "true",
    });
    const first = await buildApp(config, { database, serveClient: false, logger: false });
    await first.ready();
    const one: TestApp = { app: first, db: database.db, close: async () => {} };
    const world = await createWorld(one);
    const project = await createProject(one, world.admin, world.slug);
    const res = await client(first, world.admin).post(`/api/workspaces/${world.slug}/webhooks/`, {
      url: r.url("/restart"),
      issue: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    // The worker stops: the change commits with its delivery job, and this server sends nothing.
    await first.ctx.jobs.stop();
    const created = await client(first, world.admin).post(
      `/api/workspaces/${world.slug}/projects/${project.id}/issues/`,
      { name: "Survives a restart" },
    );
    expect(created.statusCode).toBe(201);
    await first.close();
    expect(r.on("/restart")).toHaveLength(0);

    const second = await buildApp(config, { database, serveClient: false, logger: false });
    await second.ready();
    try {
      const [got] = await until(() => {
        const list = r.on("/restart");
        if (!list.length) throw new Error("not delivered yet");
        return list;
      });
      expect(JSON.parse(got?.body ?? "{}")).toMatchObject({
        event: "issue",
        action: "created",
        data: { id: created.json().id, name: "Survives a restart" },
      });
      expect(got?.headers["x-webhook-signature"]).toBe(sign(res.json().secret_key, got?.body ?? ""));
    } finally {
      await second.close();
      await database.close();
    }
  });
});

describe("SSRF refusals (WEBHOOK_ALLOW_PRIVATE off)", () => {
  it("refuses loopback, private, link-local and metadata addresses and names resolving to them, before connecting", async () => {
    for (const url of [
      r.url("/ssrf"),
      "http://10.0.0.1/hook",
      "http://169.254.169.254/latest/meta-data/",
      `http://[::1]:${r.port}/ssrf`,
      `http://localhost:${r.port}/ssrf`,
      `http://[::ffff:127.0.0.1]:${r.port}/ssrf`,
      "http://100.100.100.200/",
      "http://[fd00:ec2::254]/",
    ]) {
      const result = await postWebhook(url, "{}", {}, false);
      expect(result.ok, url).toBe(false);
      if (!result.ok) expect(result.error, url).toMatch(/loopback or private|reserved, link-local|IPv4-mapped/);
    }
    expect(r.on("/ssrf")).toHaveLength(0);
  });

  it("a webhook stored with a loopback URL (DNS or the setting changed since) fails on delivery and is logged", async () => {
    const strict = await createTestApp();
    try {
      Object.assign(webhookDeliveryOf(strict.app.ctx).retry, { windowMs: 0 });
      const sw = await createWorld(strict);
      const project = await createProject(strict, sw.admin, sw.slug);
      const res = await client(strict.app, sw.admin).post(`/api/workspaces/${sw.slug}/webhooks/`, {
        url: "https://hooks.example.com/strict",
        issue: true,
      });
      expect(res.statusCode, res.body).toBe(201);
      // The name now points at loopback: here, the stored URL is changed behind the API's check.
      await strict.db
        .update(webhooks)
        .set({ url: `http://localhost:${r.port}/strict` })
        .where(eq(webhooks.id, res.json().id));
      await client(strict.app, sw.admin).post(`/api/workspaces/${sw.slug}/projects/${project.id}/issues/`, {
        name: "Never leaves",
      });
      const [log] = await until(async () => {
        const list = (
          await client(strict.app, sw.admin).get(`/api/workspaces/${sw.slug}/webhooks/${res.json().id}/logs/`)
        ).json().results;
        if (!list.length) throw new Error("no log yet");
        return list;
      });
      expect(log).toMatchObject({ status: "failed", response_status: null });
      expect(log.error).toMatch(/localhost resolves to .* loopback or private network address/);
      expect(r.on("/strict")).toHaveLength(0);
      // The attempt is logged first, then the job gives up and marks the webhook: wait for that.
      const hook = await until(async () => {
        const answer = (
          await client(strict.app, sw.admin).get(`/api/workspaces/${sw.slug}/webhooks/${res.json().id}/`)
        ).json();
        if (!answer.failing) throw new Error("not marked failing yet");
        return answer;
      });
      expect(hook.failing).toBe(true);
    } finally {
      await strict.close();
    }
  });

  it("a redirect to a refused address is not followed either", async () => {
    // The receiver (allowed here) answers 302 to the metadata address; nothing follows it.
    const result = await postWebhook(r.url("/redirect-metadata"), "{}", {}, true);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/^Redirect not followed \(302/);
  });
});
