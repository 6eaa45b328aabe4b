/**
 * A benchmark's world, built through the HTTP API exactly as users would: the instance
 * administrator (the god-mode form with the CSRF pair), a workspace, a project, labels, and
 * extra members (invited, signed up through the HTML form, invitation accepted, added to the
 * project), each with a session cookie of their own. `liveClient` opens a live WebSocket that
 * sends the cookie and Origin like a browser tab (PITFALLS "Clients in Node").
 */
import { readFileSync } from "node:fs";
import { HocuspocusProvider, HocuspocusProviderWebsocket } from "@hocuspocus/provider";
import { WebSocket } from "ws";
import * as Y from "yjs";
import { serverLogFiles } from "./server.ts";

export const BENCH_PASSWORD = "bench-Password-2026!";
const SESSION_COOKIE = "session-id";
const CSRF_COOKIE = "csrftoken";

let ipCounter = 0;
/** A distinct client address per signed-up user (the bench server trusts X-Forwarded-For). */
function nextIp(): string {
  const n = ++ipCounter + Math.floor(Math.random() * 1000) * 1000;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255 || 1}`;
}

export class ApiError extends Error {
  status: number;
  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

/** A cookie jar + JSON calls against one server, with the app's Origin on every request. */
export class ApiClient {
  readonly url: string;
  readonly cookies = new Map<string, string>();
  readonly forwardedFor: string;

  constructor(url: string, forwardedFor = nextIp()) {
    this.url = url;
    this.forwardedFor = forwardedFor;
  }

  /** The Cookie header value (session and CSRF cookies). */
  get cookie(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  /** Only the session cookie, as `session-id=…`. */
  get sessionCookie(): string {
    const token = this.cookies.get(SESSION_COOKIE);
    if (!token) throw new Error("not signed in");
    return `${SESSION_COOKIE}=${token}`;
  }

  /** Headers a browser on the app's page would send (cookie, Origin). */
  headers(extra: Record<string, string> = {}): Record<string, string> {
    return { origin: this.url, cookie: this.cookie, "x-forwarded-for": this.forwardedFor, ...extra };
  }

  async raw(method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}) {
    const response = await fetch(this.url + path, {
      method,
      body: init.body,
      headers: this.headers(init.headers),
      redirect: "manual",
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair?.indexOf("=") ?? -1;
      if (!pair || eq < 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === "" || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await this.raw(method, path, {
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: body === undefined ? {} : { "content-type": "application/json" },
    });
    const text = await response.text();
    if (!response.ok)
      throw new ApiError(`${method} ${path} → ${response.status} ${text.slice(0, 300)}`, response.status);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  get<T>(path: string) {
    return this.json<T>("GET", path);
  }
  post<T>(path: string, body: unknown = {}) {
    return this.json<T>("POST", path, body);
  }
  patch<T>(path: string, body: unknown) {
    return this.json<T>("PATCH", path, body);
  }

  /** POST an HTML form with a fresh CSRF pair; returns the redirect target, throwing on an auth error code. */
  async form(path: string, fields: Record<string, string>): Promise<string> {
    const { csrf_token } = await this.get<{ csrf_token: string }>("/auth/get-csrf-token/");
    if (!this.cookies.has(CSRF_COOKIE)) throw new Error("no CSRF cookie was set");
    const response = await this.raw("POST", path, {
      body: new URLSearchParams({ ...fields, csrfmiddlewaretoken: csrf_token }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    await response.arrayBuffer();
    const location = response.headers.get("location") ?? "";
    if (response.status >= 400 || location.includes("error_code")) {
      throw new ApiError(`${path} → ${response.status} ${location}`, response.status);
    }
    return location;
  }
}

export type Member = { id: string; email: string; api: ApiClient /** `session-id=…` */; cookie: string };
export type StateRow = { id: string; name: string; group: string };
export type LabelRow = { id: string; name: string };

export type Fixture = {
  url: string;
  admin: Member;
  workspace: { id: string; slug: string };
  project: { id: string; identifier: string };
  /** The project's states in display order. */
  states: StateRow[];
  labels: LabelRow[];
  /** Extra members (role member), not counting the admin. */
  members: Member[];
  /** `/api/workspaces/{slug}/projects/{id}` */
  projectPath: string;
};

export type SetupOptions = {
  /** Extra workspace + project members (each signs up and gets a session). Default 0. */
  members?: number;
  /** Labels created in the project. Default 0. */
  labels?: number;
  /** How many members sign up at once (scrypt is CPU-bound; 2 cores). Default 4. */
  concurrency?: number;
  log?: (msg: string) => void;
};

const LABEL_COLORS = ["#e5484d", "#f76b15", "#ffc53d", "#46a758", "#12a594", "#0090ff", "#6e56cf", "#d6409f"];

/** Run `fn` over `items` with at most `limit` in flight. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>) {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Administrator, workspace, project, labels and members on a fresh server. */
export async function setupFixture(url: string, options: SetupOptions = {}): Promise<Fixture> {
  const log = options.log ?? (() => {});
  const runId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const admin = new ApiClient(url);
  const adminEmail = `admin-${runId}@bench.example.com`;
  await admin.form("/api/instances/admins/sign-up/", {
    email: adminEmail,
    password: BENCH_PASSWORD,
    first_name: "Bench",
    last_name: "Admin",
    company_name: "Tideline bench",
  });
  await onboard(admin, "Bench", "Admin");
  const me = await admin.get<{ id: string }>("/api/users/me/");

  const slug = `bench-${runId}`;
  const workspace = await admin.post<{ id: string; slug: string }>("/api/workspaces/", {
    name: "Bench",
    slug,
    organization_size: "11-50",
  });
  const project = await admin.post<{ id: string; identifier: string }>(`/api/workspaces/${slug}/projects/`, {
    name: "Board",
    identifier: "BNCH",
  });
  const projectPath = `/api/workspaces/${slug}/projects/${project.id}`;
  const statesAnswer = await admin.get<StateRow[] | { results: StateRow[] }>(`${projectPath}/states/`);
  const states = Array.isArray(statesAnswer) ? statesAnswer : statesAnswer.results;

  const labels: LabelRow[] = [];
  for (let i = 0; i < (options.labels ?? 0); i++) {
    const label = await admin.post<LabelRow>(`${projectPath}/issue-labels/`, {
      name: `label-${i + 1}`,
      color: LABEL_COLORS[i % LABEL_COLORS.length],
    });
    labels.push({ id: label.id, name: label.name });
  }

  const members = await addMembers(admin, slug, project.id, options.members ?? 0, runId, options.concurrency ?? 4);
  log(`set up: workspace ${slug}, project ${project.id}, ${labels.length} labels, ${members.length} members`);
  return {
    url,
    admin: { id: me.id, email: adminEmail, api: admin, cookie: admin.sessionCookie },
    workspace: { id: workspace.id, slug },
    project: { id: project.id, identifier: project.identifier },
    states,
    labels,
    members,
    projectPath,
  };
}

async function onboard(api: ApiClient, firstName: string, lastName: string): Promise<void> {
  await api.patch("/api/users/me/", { first_name: firstName, last_name: lastName });
  await api.patch("/api/users/me/profile/", {
    onboarding_step: { profile_complete: true, workspace_create: true, workspace_invite: true, workspace_join: true },
  });
  await api.patch("/api/users/me/onboard/", { is_onboarded: true });
}

/**
 * The six-digit code of the latest mail to `email` in the servers' logs (the outbox without
 * SMTP), polled until a deadline.
 */
async function waitForMailedCode(email: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const file of serverLogFiles()) {
      let text = "";
      try {
        text = readFileSync(file, "utf8");
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
    if (Date.now() > deadline) throw new Error(`no code mailed to ${email} in ${serverLogFiles().join(", ")}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * `count` new members: invited (100 per request), signed up with the invited address,
 * the address proven with the code mailed to it (a password sign-up does not prove it, and
 * invitations stay hidden until it is), invitation accepted, added to the project.
 */
export async function addMembers(
  admin: ApiClient,
  slug: string,
  projectId: string,
  count: number,
  runId = Date.now().toString(36),
  concurrency = 4,
): Promise<Member[]> {
  if (count <= 0) return [];
  const emails = Array.from({ length: count }, (_, i) => `member-${i + 1}-${runId}@bench.example.com`);
  for (let i = 0; i < emails.length; i += 100) {
    await admin.post(`/api/workspaces/${slug}/invitations/`, {
      emails: emails.slice(i, i + 100).map((email) => ({ email, role: 15 })),
    });
  }
  const members = await mapLimit(emails, concurrency, async (email, i) => {
    const api = new ApiClient(admin.url);
    await api.form("/auth/sign-up/", { email, password: BENCH_PASSWORD });
    await api.post("/auth/verify-email/send/", {});
    await api.post("/auth/verify-email/", { code: await waitForMailedCode(email) });
    const me = await api.get<{ id: string }>("/api/users/me/");
    const pending = await api.get<{ id: string }[]>("/api/users/me/workspaces/invitations/");
    await api.post("/api/users/me/workspaces/invitations/", { invitations: pending.map((p) => p.id) });
    await api.patch("/api/users/me/", { first_name: "Member", last_name: String(i + 1) });
    return { id: me.id, email, api, cookie: api.sessionCookie };
  });
  for (let i = 0; i < members.length; i += 200) {
    await admin.post(`/api/workspaces/${slug}/projects/${projectId}/members/`, {
      members: members.slice(i, i + 200).map((m) => ({ member_id: m.id, role: 15 })),
    });
  }
  return members;
}

/** A WebSocket class that sends `headers` on the upgrade, as a browser sends its cookie and Origin. */
function webSocketWith(headers: Record<string, string>) {
  return class extends WebSocket {
    constructor(address: string | URL, protocols?: string | string[]) {
      super(address, protocols, { headers });
    }
  };
}

/**
 * One live WebSocket ("a browser tab") to `url`'s /live, authenticated by `cookie`
 * (`session-id=…`). It connects at once; open documents on it with `openDocument`.
 * Reconnection is off, so a benchmark never hides a refused or dropped connection.
 */
export function liveClient(url: string, cookie: string): HocuspocusProviderWebsocket {
  const origin = new URL(url).origin;
  return new HocuspocusProviderWebsocket({
    url: `${origin.replace(/^http/, "ws")}/live`,
    WebSocketPolyfill: webSocketWith({ cookie, origin }),
    maxAttempts: 1,
  });
}

export type OpenedDocument = { provider: HocuspocusProvider; doc: Y.Doc };

/**
 * Open `name` (page.{id}, issue.{id}, project.{id}, user.{id}) on a live client and wait until
 * it is synced; throws when the server refuses it.
 */
export async function openDocument(
  socket: HocuspocusProviderWebsocket,
  name: string,
  timeoutMs = 30_000,
): Promise<OpenedDocument> {
  const doc = new Y.Doc();
  const provider = new HocuspocusProvider({ name, document: doc, websocketProvider: socket });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not sync within ${timeoutMs} ms`)), timeoutMs);
    provider.on("synced", () => {
      clearTimeout(timer);
      resolve();
    });
    provider.on("authenticationFailed", ({ reason }: { reason: string }) => {
      clearTimeout(timer);
      reject(new Error(`${name} refused: ${reason}`));
    });
    provider.attach();
  });
  return { provider, doc };
}
