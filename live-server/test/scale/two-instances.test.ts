/**
 * Two real server processes (`node live-server/src/main.ts`) behind one PostgreSQL and one
 * Redis, as `npm run test:scale` runs them (TEST_DATABASE_URL: an admin connection that may
 * CREATE DATABASE; REDIS_URL). Everything goes through the public surface: HTTP with cookies and
 * Origin like a browser, and real Hocuspocus providers on /live.
 * - set-up over HTTP on instance A (god-mode admin, two users who sign up, a workspace, an
 *   invitation, a project), and a session cookie from one instance works on the other;
 * - a page co-edited by a client on each instance converges on both and in the stored HTML;
 * - a work item changed through one instance reaches the project subscriber on the other, once.
 * Ports 3301 and 3302; the database `tideline_scale_<random>` is dropped at the end.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  CLIENT_MUTATION_HEADER,
  DOCUMENT_FIELD,
  type LiveStatelessMessage,
  pageDocumentName,
  projectChannelName,
  ROLE,
} from "@tideline/shared";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import * as Y from "yjs";
import { SESSION_COOKIE } from "../../src/auth/sessions.ts";
import {
  appendParagraph,
  bodyText,
  eventually,
  type OpenDocument,
  openTab,
  synced,
  type Tab,
} from "../../src/live/test-support.ts";
import { withDatabase } from "../global-setup.ts";

const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../src/main.ts");
const PORTS = [3301, 3302] as const;
const SECRET = "scale-test-secret-key-that-is-long-enough-0123456789";
const PASSWORD = "Harbour-lantern-42-scale";
/** Generous: two cold starts (migrations under an advisory lock) on a busy CI machine. */
const START_TIMEOUT_MS = 90_000;
const LIVE_TIMEOUT_MS = 30_000;

const adminUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.REDIS_URL;

// ───────── server processes ─────────

type Instance = { name: string; origin: string; ws: string; proc: ChildProcess; logFile: string };

/** Fail early and clearly when a port is taken (a leftover server, or someone else's). */
async function assertPortFree(port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const server = createServer();
    server.once("error", (err) =>
      reject(new Error(`port ${port} is in use (${err.message}): stop what listens there`)),
    );
    server.listen(port, "127.0.0.1", () => server.close(() => resolve()));
  });
}

function startInstance(name: string, port: number, databaseUrl: string, dir: string): Instance {
  const origin = `http://127.0.0.1:${port}`;
  const dataDir = path.join(dir, `data-${name}`);
  mkdirSync(dataDir, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env };
  // Only what this test sets: nothing from the caller's shell may point the server elsewhere.
  for (const key of Object.keys(env)) {
    if (/^(DATABASE_URL|TEST_DATABASE_URL|REDIS_URL|SMTP_|S3_|STORAGE_DRIVER|CLIENT_DIST|TRUST_PROXY)/.test(key)) {
      delete env[key];
    }
  }
  Object.assign(env, {
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    SECRET_KEY: SECRET,
    APP_BASE_URL: origin,
    LOG_LEVEL: "info",
    CLIENT_DIST: path.join(dir, "no-client"),
  });
  const logFile = path.join(dir, `server-${name}.log`);
  const out = openSync(logFile, "a");
  const proc = spawn(process.execPath, [MAIN], { env, stdio: ["ignore", out, out] });
  running.add(proc);
  proc.once("exit", () => running.delete(proc));
  return { name, origin, ws: `ws://127.0.0.1:${port}/live`, proc, logFile };
}

/**
 * The six-digit code of the latest mail to `email` (without SMTP each instance's log is its
 * outbox; the mail job may run on either instance), polled until a deadline.
 */
async function mailedCode(instances: Instance[], email: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const instance of instances) {
      let text = "";
      try {
        text = readFileSync(instance.logFile, "utf8");
      } catch {
        continue;
      }
      for (const line of text.split("\n").reverse()) {
        if (!line.includes(email)) continue;
        try {
          const mail = (JSON.parse(line) as { mail?: { to?: string; text?: string } }).mail;
          const code = mail?.to === email ? /\b(\d{6})\b/.exec(mail.text ?? "")?.[1] : undefined;
          if (code) return code;
        } catch {
          // a line still being written
        }
      }
    }
    if (Date.now() > deadline) throw new Error(`no code mailed to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Servers still running: killed if this worker exits without reaching afterAll. */
const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const proc of running) proc.kill("SIGKILL");
});

function logTail(instance: Instance, lines = 40): string {
  try {
    const text = readFileSync(instance.logFile, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
    return `--- last lines of instance ${instance.name}'s log (${instance.logFile}) ---\n${text}`;
  } catch {
    return `--- no log for instance ${instance.name} ---`;
  }
}

async function waitUntilUp(instance: Instance): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let last = "no answer yet";
  for (;;) {
    const { exitCode, signalCode } = instance.proc;
    if (exitCode !== null || signalCode !== null) {
      throw new Error(`instance ${instance.name} exited (${exitCode ?? signalCode})\n${logTail(instance)}`);
    }
    try {
      const res = await fetch(`${instance.origin}/api/instances/`);
      if (res.status === 200) return;
      last = `HTTP ${res.status}`;
    } catch (error) {
      last = String(error);
    }
    if (Date.now() > deadline) {
      throw new Error(
        `instance ${instance.name} did not answer within ${START_TIMEOUT_MS} ms (${last})\n${logTail(instance)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stopInstance(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  proc.kill("SIGTERM");
  const timer = setTimeout(() => proc.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}

// ───────── a browser's HTTP: one cookie jar per user, Origin of the instance addressed ─────────

class Browser {
  readonly cookies = new Map<string, string>();

  get token(): string {
    const token = this.cookies.get(SESSION_COOKIE);
    if (!token) throw new Error("not signed in");
    return token;
  }

  async request(
    instance: Instance,
    method: string,
    url: string,
    options: { json?: unknown; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { origin: instance.origin, ...options.headers };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    let body: string | undefined;
    if (options.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(options.form).toString();
    } else if (options.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.json);
    }
    const res = await fetch(`${instance.origin}${url}`, { method, headers, body, redirect: "manual" });
    for (const line of res.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (!value || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  /** A JSON call that must succeed; its answer. */
  async json<T>(instance: Instance, method: string, url: string, body?: unknown, headers?: Record<string, string>) {
    const res = await this.request(instance, method, url, { json: body, headers });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${url} on ${instance.name} → ${res.status} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }

  /** Post an auth form with the CSRF pair, as the sign-in screens do; it must end signed in. */
  async submitForm(instance: Instance, url: string, fields: Record<string, string>): Promise<void> {
    const { csrf_token } = await this.json<{ csrf_token: string }>(instance, "GET", "/auth/get-csrf-token/");
    const res = await this.request(instance, "POST", url, { form: { ...fields, csrfmiddlewaretoken: csrf_token } });
    const location = res.headers.get("location") ?? "";
    expect(res.status, `${url} on ${instance.name} → ${res.status} ${location}`).toBe(302);
    expect(location, `${url} on ${instance.name}`).not.toContain("error_code");
    expect(this.cookies.get(SESSION_COOKIE), `${url} sets a session`).toBeTruthy();
  }
}

// ───────── the run ─────────

describe("two server processes sharing PostgreSQL and Redis", () => {
  let dir = "";
  let databaseName = "";
  const instances: Instance[] = [];
  const tabs: Tab[] = [];
  const user1 = new Browser();
  const user2 = new Browser();
  /** user 2 signed in again through instance B: a second session of the same user. */
  const user2OnB = new Browser();
  let slug = "";
  let projectId = "";
  let projectUrl = "";
  let issueId = "";
  let channelOnA: OpenDocument;
  let channelOnB: OpenDocument;

  /** Rows of a document's write-ahead log, read straight from the test's database. */
  const logRowCount = async (documentName: string): Promise<number> => {
    const client = new pg.Client({ connectionString: withDatabase(adminUrl as string, databaseName) });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>(
        "select count(*)::int as n from document_updates where document_name = $1",
        [documentName],
      );
      return rows[0]?.n ?? 0;
    } finally {
      await client.end();
    }
  };
  const a = () => instances[0] as Instance;
  const b = () => instances[1] as Instance;
  const tab = (instance: Instance, user: Browser) => {
    const opened = openTab(instance.ws, { token: user.token }, { origin: instance.origin });
    tabs.push(opened);
    return opened;
  };
  const withLogs = () =>
    onTestFailed(() => {
      for (const instance of instances) console.error(logTail(instance));
    });

  beforeAll(async () => {
    if (!adminUrl || !redisUrl) {
      throw new Error(
        "The scale tests need TEST_DATABASE_URL (a PostgreSQL role that may CREATE DATABASE) and REDIS_URL; " +
          "run them through `npm run test:scale`, or e.g. TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres " +
          "REDIS_URL=redis://127.0.0.1:6379 npx vitest run --project scale",
      );
    }
    for (const port of PORTS) await assertPortFree(port);
    dir = mkdtempSync(path.join(os.tmpdir(), "tideline-scale-"));
    databaseName = `tideline_scale_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query(`create database "${databaseName}"`);
    } finally {
      await admin.end();
    }
    const databaseUrl = withDatabase(adminUrl, databaseName);

    // Both at once: the migrations are serialised by an advisory lock.
    instances.push(startInstance("A", PORTS[0], databaseUrl, dir), startInstance("B", PORTS[1], databaseUrl, dir));
    await Promise.all(instances.map(waitUntilUp));

    // The instance administrator, then two people who sign up, all on A.
    const run = randomUUID().slice(0, 8);
    const godMode = new Browser();
    await godMode.submitForm(a(), "/api/instances/admins/sign-up/", {
      email: `admin-${run}@scale.test`,
      password: PASSWORD,
      first_name: "Ada",
      company_name: "Scale Labs",
    });
    const email1 = `one-${run}@scale.test`;
    const email2 = `two-${run}@scale.test`;
    await user1.submitForm(a(), "/auth/sign-up/", { email: email1, password: PASSWORD });
    await user2.submitForm(a(), "/auth/sign-up/", { email: email2, password: PASSWORD });

    slug = `scale-${run}`;
    await user1.json(a(), "POST", "/api/workspaces/", { name: `Scale ${run}`, slug, organization_size: "2-10" });
    const project = await user1.json<{ id: string }>(a(), "POST", `/api/workspaces/${slug}/projects/`, {
      name: "Scale",
      identifier: "SCL",
    });
    projectId = project.id;
    projectUrl = `/api/workspaces/${slug}/projects/${projectId}`;
    await user1.json(a(), "POST", `/api/workspaces/${slug}/invitations/`, {
      emails: [{ email: email2, role: ROLE.member }],
    });
    // A password sign-up proves nothing about the address: user 2 proves it with the mailed code.
    await user2.json(a(), "POST", "/auth/verify-email/send/", {});
    await user2.json(b(), "POST", "/auth/verify-email/", { code: await mailedCode(instances, email2) });
    const invitations = await user2.json<{ id: string }[]>(a(), "GET", "/api/users/me/workspaces/invitations/");
    expect(invitations).toHaveLength(1);
    await user2.json(a(), "POST", "/api/users/me/workspaces/invitations/", {
      invitations: invitations.map((i) => i.id),
    });
    await user2.json(a(), "POST", `/api/workspaces/${slug}/projects/join/`, { project_ids: [projectId] });
    const issue = await user1.json<{ id: string }>(a(), "POST", `${projectUrl}/issues/`, { name: "On the board" });
    issueId = issue.id;

    // Sessions live in the shared database: A's cookie works on B, and signing in on B works too.
    const me = await user1.json<{ email: string }>(b(), "GET", "/api/users/me/");
    expect(me.email).toBe(email1);
    await user2OnB.submitForm(b(), "/auth/sign-in/", { email: email2, password: PASSWORD });

    // Each user listens to the project's board on "their" instance from the start, so every
    // event of the run is checked for duplicates.
    channelOnA = tab(a(), user1).open(projectChannelName(projectId));
    channelOnB = tab(b(), user2OnB).open(projectChannelName(projectId));
    await synced(channelOnA, LIVE_TIMEOUT_MS);
    await synced(channelOnB, LIVE_TIMEOUT_MS);
    expect(channelOnA.scope).toBe("readonly");
    expect(channelOnB.scope).toBe("readonly");
  }, START_TIMEOUT_MS * 2);

  afterAll(async () => {
    for (const t of tabs) t.destroy();
    await Promise.allSettled(instances.map((instance) => stopInstance(instance.proc)));
    if (databaseName && adminUrl) {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      try {
        await admin.query(`drop database if exists "${databaseName}" with (force)`);
      } finally {
        await admin.end();
      }
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it("converges a page co-edited through both instances, on both sides and in the stored description", async () => {
    withLogs();
    const page = await user1.json<{ id: string }>(a(), "POST", `${projectUrl}/pages/`, {
      name: "Co-edited",
      description_html: "<p>Shared start</p>",
    });
    const name = pageDocumentName(page.id);
    const onA = tab(a(), user1).open(name);
    const onB = tab(b(), user2OnB).open(name);
    await synced(onA, LIVE_TIMEOUT_MS);
    await synced(onB, LIVE_TIMEOUT_MS);
    expect(onA.scope).toBe("read-write");
    expect(onB.scope).toBe("read-write");
    expect(bodyText(onA.doc)).toBe("Shared start");
    expect(bodyText(onB.doc)).toBe("Shared start");

    // Concurrent: neither side waits for the other's edits before making its own.
    const expected = ["Shared start"];
    for (let i = 1; i <= 5; i++) {
      appendParagraph(onA.doc, `from A ${i}`);
      appendParagraph(onB.doc, `from B ${i}`);
      expected.push(`from A ${i}`, `from B ${i}`);
    }
    // Both also type into the same paragraph at the same spot.
    prependToFirstParagraph(onA.doc, "[A]");
    prependToFirstParagraph(onB.doc, "[B]");
    const sameSet = (text: string) => {
      const lines = text.split("\n");
      expect(lines[0]).toMatch(/^(\[A\]\[B\]|\[B\]\[A\])Shared start$/);
      expect(lines.slice(1).sort()).toEqual(expected.slice(1).sort());
    };

    await eventually(() => {
      if (onA.provider.hasUnsyncedChanges || onB.provider.hasUnsyncedChanges) throw new Error("not acknowledged yet");
      expect(bodyText(onB.doc)).toBe(bodyText(onA.doc));
      sameSet(bodyText(onA.doc));
    }, LIVE_TIMEOUT_MS);
    const converged = bodyText(onA.doc);
    const html = converged
      .split("\n")
      .map((line) => `<p>${line}</p>`)
      .join("");

    // Stored (debounced) while both still edit, and the same through either instance.
    const storedThrough = async (instance: Instance, user: Browser) =>
      (await user.json<{ description_html: string }>(instance, "GET", `${projectUrl}/pages/${page.id}/`))
        .description_html;
    await eventually(async () => {
      expect(await storedThrough(a(), user1)).toBe(html);
      expect(await storedThrough(b(), user1)).toBe(html);
      expect(await storedThrough(b(), user2OnB)).toBe(html);
    }, LIVE_TIMEOUT_MS);

    // Everyone leaves at once: each instance stores what its clients wrote, so the write-ahead
    // log of the page is folded away completely (nothing left for the next load to replay).
    onA.provider.destroy();
    onB.provider.destroy();
    await eventually(async () => expect(await logRowCount(name)).toBe(0), LIVE_TIMEOUT_MS);
    expect(await storedThrough(b(), user2OnB)).toBe(html);

    // A fresh client on B (with A's session cookie) loads exactly that text.
    const again = tab(b(), user1).open(name, new Y.Doc());
    await synced(again, LIVE_TIMEOUT_MS);
    await eventually(() => expect(bodyText(again.doc)).toBe(converged), LIVE_TIMEOUT_MS);
    again.provider.destroy();
    expect(await storedThrough(a(), user2)).toBe(html);
  });

  it("delivers a board event changed through one instance to the subscriber on the other, once", async () => {
    withLogs();
    const issueUrl = `${projectUrl}/issues/${issueId}/`;
    const patch = async (instance: Instance, user: Browser, body: Record<string, unknown>) => {
      const mutationId = `scale-${instance.name}-${randomUUID()}`;
      await user.json(instance, "PATCH", issueUrl, body, { [CLIENT_MUTATION_HEADER]: mutationId });
      return mutationId;
    };
    const withMutation = (channel: OpenDocument, id: string) =>
      channel.messages.filter((m) => m.event.client_mutation_id === id);
    const seenOnce = (channel: OpenDocument, id: string, name: string) => {
      const found = withMutation(channel, id);
      expect(found).toHaveLength(1);
      const [message] = found as [LiveStatelessMessage];
      expect(message.event).toMatchObject({ type: "issue.updated", entity_id: issueId, project_id: projectId });
      expect(message.event.data.name).toBe(name);
    };

    // Through A → the subscriber on B (and A's own).
    const throughA = await patch(a(), user1, { name: "Renamed through A" });
    await eventually(() => seenOnce(channelOnB, throughA, "Renamed through A"), LIVE_TIMEOUT_MS);
    await eventually(() => seenOnce(channelOnA, throughA, "Renamed through A"), LIVE_TIMEOUT_MS);

    // Through B (user 2's B session) → the subscriber on A.
    const throughB = await patch(b(), user2OnB, { name: "Renamed through B" });
    await eventually(() => seenOnce(channelOnA, throughB, "Renamed through B"), LIVE_TIMEOUT_MS);
    await eventually(() => seenOnce(channelOnB, throughB, "Renamed through B"), LIVE_TIMEOUT_MS);

    // A later change through each instance, seen on both: an echo of the earlier ones
    // travelling a second path would have arrived by now.
    const lastA = await patch(a(), user1, { name: "Last through A" });
    const lastB = await patch(b(), user2OnB, { name: "Last through B" });
    await eventually(() => {
      for (const channel of [channelOnA, channelOnB]) {
        seenOnce(channel, lastA, "Last through A");
        seenOnce(channel, lastB, "Last through B");
      }
    }, LIVE_TIMEOUT_MS);
    for (const channel of [channelOnA, channelOnB]) {
      seenOnce(channel, throughA, "Renamed through A");
      seenOnce(channel, throughB, "Renamed through B");
      // No event of the whole run (page events of the other test included) arrived twice.
      const ids = channel.messages.map((m) => m.event.id);
      expect(ids.length).toBeGreaterThan(0);
      expect(new Set(ids).size).toBe(ids.length);
      expect(channel.messages.every((m) => m.event.project_id === projectId)).toBe(true);
    }
  });
});

/** Type `text` at the start of the first paragraph. */
function prependToFirstParagraph(doc: Y.Doc, text: string): void {
  const first = doc.getXmlFragment(DOCUMENT_FIELD).get(0);
  if (!(first instanceof Y.XmlElement)) throw new Error("no first paragraph");
  const node = first.get(0);
  if (!(node instanceof Y.XmlText)) throw new Error("no text in the first paragraph");
  node.insert(0, text);
}
