import "fake-indexeddb/auto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fetchWithLastAnswers, isKeptRead } from "./last-answers";

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
});
