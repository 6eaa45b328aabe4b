import "fake-indexeddb/auto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fetchWithLastAnswers, forgetKeptAnswers, isKeptRead } from "./last-answers";

const ORIGIN = "http://app.test";
let network: "up" | "down" = "up";
let answers: Record<string, { status: number; body: unknown }> = {};

vi.stubGlobal("fetch", async (input: RequestInfo | URL) => {
  if (network === "down") throw new TypeError("Failed to fetch");
  const url = new URL(input instanceof Request ? input.url : String(input));
  const answer = answers[url.pathname + url.search] ?? { status: 404, body: { error: "No route" } };
  return new Response(JSON.stringify(answer.body), {
    status: answer.status,
    headers: { "content-type": "application/json" },
  });
});

async function read(path: string, method = "GET"): Promise<{ status: number; body: unknown; offline: boolean }> {
  const response = await fetchWithLastAnswers(new Request(`${ORIGIN}${path}`, { method }));
  return {
    status: response.status,
    body: await response.json(),
    offline: response.headers.get("x-tideline-offline") === "1",
  };
}

/** Kept answers are written in the background: let them land. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

afterEach(() => {
  network = "up";
  answers = {};
});

describe("last answers of the start-up reads", () => {
  it("keeps only the reads a board starts with", () => {
    expect(isKeptRead("/api/users/me/")).toBe(true);
    expect(isKeptRead("/api/workspaces/acme/projects/p1/user-properties/")).toBe(true);
    expect(isKeptRead("/api/workspaces/acme/projects/p1/issues/")).toBe(false);
    expect(isKeptRead("/api/workspaces/acme/users/notifications/unread/")).toBe(false);
    expect(isKeptRead("/auth/get-csrf-token/")).toBe(false);
  });

  it("online, reads go to the server; offline, a kept read answers its last answer", async () => {
    answers["/api/users/me/"] = { status: 200, body: { id: "u1", first_name: "Ada" } };
    expect(await read("/api/users/me/")).toEqual({
      status: 200,
      body: { id: "u1", first_name: "Ada" },
      offline: false,
    });
    await settle();
    answers["/api/users/me/"] = { status: 200, body: { id: "u1", first_name: "Ada L." } };
    await read("/api/users/me/");
    await settle();
    network = "down";
    expect(await read("/api/users/me/")).toEqual({
      status: 200,
      body: { id: "u1", first_name: "Ada L." },
      offline: true,
    });
    // Never kept, never answered offline.
    await expect(read("/api/workspaces/acme/projects/p1/issues/")).rejects.toThrow(TypeError);
  });

  it("a PATCH's answer replaces the kept read (a layout changed just before going offline)", async () => {
    const path = "/api/workspaces/acme/projects/p1/user-properties/";
    answers[path] = { status: 200, body: { display_filters: { layout: "list" } } };
    await read(path);
    await settle();
    answers[path] = { status: 200, body: { display_filters: { layout: "kanban" } } };
    await read(path, "PATCH");
    await settle();
    network = "down";
    expect((await read(path)).body).toEqual({ display_filters: { layout: "kanban" } });
  });

  it("finishing onboarding keeps its answer as the profile: the next page does not start 'not onboarded'", async () => {
    const profile = "/api/users/me/profile/";
    answers[profile] = { status: 200, body: { is_onboarded: false } };
    await read(profile, "PATCH");
    await settle();
    answers["/api/users/me/onboard/"] = { status: 200, body: { is_onboarded: true } };
    await read("/api/users/me/onboard/", "PATCH");
    await settle();
    network = "down";
    expect((await read(profile)).body).toEqual({ is_onboarded: true });
  });

  it("a 401 (the session ended) forgets every kept answer", async () => {
    answers["/api/instances/"] = { status: 200, body: { instance: {} } };
    await read("/api/instances/");
    await settle();
    answers["/api/users/me/"] = { status: 401, body: { error: "Authentication required" } };
    await read("/api/users/me/");
    await settle();
    network = "down";
    await expect(read("/api/instances/")).rejects.toThrow(TypeError);
  });

  it("going to sign-in after a session ended elsewhere (the live layer's 4401) forgets every kept answer", async () => {
    answers["/api/instances/"] = { status: 200, body: { instance: {} } };
    await read("/api/instances/");
    await settle();
    await forgetKeptAnswers();
    network = "down";
    await expect(read("/api/instances/")).rejects.toThrow(TypeError);
  });
});

describe("starting from the kept answers", () => {
  /** A fresh copy of the module (its start window and answered keys), over the same IndexedDB. */
  async function freshModule() {
    vi.resetModules();
    return import("./last-answers");
  }

  async function readWith(module: Awaited<ReturnType<typeof freshModule>>, path: string) {
    const response = await module.fetchWithLastAnswers(new Request(`${ORIGIN}${path}`));
    return { body: await response.json(), kept: response.headers.get("x-tideline-kept") === "1" };
  }

  it("answers the kept copy at once, asks the server behind it, and says when it differs", async () => {
    const path = "/api/workspaces/acme/projects/p9/";
    answers[path] = { status: 200, body: { id: "p9", name: "Apollo" } };
    await read(path);
    await settle();

    const module = await freshModule();
    const changed: string[] = [];
    module.onKeptAnswerChanged(/\/projects\/[^/]+\/$/, (pathname) => changed.push(pathname));
    answers[path] = { status: 200, body: { id: "p9", name: "Artemis" } };
    expect(await readWith(module, path)).toEqual({ body: { id: "p9", name: "Apollo" }, kept: true });
    await settle();
    expect(changed).toEqual([path]);
    // Read again (as the store does when told): the server answers now, and the copy is new.
    expect(await readWith(module, path)).toEqual({ body: { id: "p9", name: "Artemis" }, kept: false });
    network = "down";
    expect(await read(path)).toMatchObject({ body: { name: "Artemis" }, offline: true });
  });

  it("says nothing when the server agrees", async () => {
    const path = "/api/users/me/workspaces/";
    answers[path] = { status: 200, body: [{ slug: "acme" }] };
    await read(path);
    await settle();
    const module = await freshModule();
    const changed: string[] = [];
    module.onKeptAnswerChanged(/.*/, (pathname) => changed.push(pathname));
    expect((await readWith(module, path)).kept).toBe(true);
    await settle();
    expect(changed).toEqual([]);
  });

  it("a session that ended behind a kept answer forgets every kept answer and says so", async () => {
    answers["/api/instances/"] = { status: 200, body: { instance: {} } };
    answers["/api/users/me/"] = { status: 200, body: { id: "u1" } };
    await read("/api/instances/");
    await read("/api/users/me/");
    await settle();
    const module = await freshModule();
    const changed: string[] = [];
    module.onKeptAnswerChanged(/^\/api\/users\/me\/$/, (pathname) => changed.push(pathname));
    answers["/api/users/me/"] = { status: 401, body: { error: "Authentication required" } };
    expect((await readWith(module, "/api/users/me/")).kept).toBe(true);
    await settle();
    expect(changed).toEqual(["/api/users/me/"]);
    network = "down";
    await expect(read("/api/instances/")).rejects.toThrow(TypeError);
  });

  it("once the start is over, reads ask the server first", async () => {
    const path = "/api/workspaces/acme/";
    answers[path] = { status: 200, body: { slug: "acme", name: "Acme" } };
    await read(path);
    await settle();
    const module = await freshModule();
    module.closeStartWindow();
    answers[path] = { status: 200, body: { slug: "acme", name: "Acme Inc." } };
    expect(await readWith(module, path)).toEqual({ body: { slug: "acme", name: "Acme Inc." }, kept: false });
  });
});

describe("the server's checks wait for the first paint", () => {
  const BOARD = "/acme/projects/0b6c1f3e-6a3e-4a7c-9d1e-2f4b5c6d7e8f/issues/";

  /** A fresh copy of the module as a page at `pathname` loads it (a window, timers under our control). */
  async function pageAt(pathname: string) {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    Object.assign(globalThis, { window: globalThis, location: new URL(`${ORIGIN}${pathname}`) });
    vi.resetModules();
    const module = await import("./last-answers");
    const ran: string[] = [];
    module.afterFirstPaint(() => ran.push("check"));
    return { module, ran };
  }

  afterEach(() => {
    vi.useRealTimers();
    Reflect.deleteProperty(globalThis, "window");
    Reflect.deleteProperty(globalThis, "location");
  });

  it("on a board's address: until the board paints, not at the one-second mark", async () => {
    const { module, ran } = await pageAt(BOARD);
    vi.advanceTimersByTime(1_500);
    expect(ran).toEqual([]);
    module.closeStartWindow();
    // In the task after the paint's, not in it (a long task otherwise).
    expect(ran).toEqual([]);
    vi.advanceTimersByTime(0);
    expect(ran).toEqual(["check"]);
  });

  it("on a board's address that never paints: at the end of the 5-second start window", async () => {
    const { ran } = await pageAt(BOARD);
    vi.advanceTimersByTime(4_900);
    expect(ran).toEqual([]);
    vi.advanceTimersByTime(200);
    expect(ran).toEqual(["check"]);
  });

  it("on any other screen: after a second at most", async () => {
    const { ran } = await pageAt("/acme/projects/");
    vi.advanceTimersByTime(900);
    expect(ran).toEqual([]);
    vi.advanceTimersByTime(200);
    expect(ran).toEqual(["check"]);
  });
});
