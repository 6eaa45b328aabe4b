/**
 * The Origin check of unsafe methods (http/origin.ts): only the configured origins count,
 * never the Host header of the request itself.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, createUser, ORIGIN, type TestApp, type TestUser } from "../../test/harness.ts";
import { loadConfig } from "../config.ts";

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  user = await createUser(t.db);
});
afterAll(() => t.close());

const patchMe = (headers: Record<string, string>) =>
  client(t.app, user, headers).patch("/api/users/me/", { first_name: "Changed" });

describe("the Origin check", () => {
  it("refuses an Origin that only matches the Host the request addressed (DNS rebinding)", async () => {
    const before = (await client(t.app, user).get("/api/users/me/")).json().first_name;
    for (const [origin, host] of [
      ["http://evil.example", "evil.example"],
      ["http://127.0.0.1:3000", "127.0.0.1:3000"],
      ["https://evil.example", "evil.example"],
    ] as const) {
      const res = await patchMe({ origin, host });
      expect(res.statusCode, origin).toBe(403);
      expect(res.json().error).toMatch(/Cross-site request refused/);
    }
    // The same through Referer alone.
    const viaReferer = await t.app.inject({
      method: "PATCH",
      url: "/api/users/me/",
      payload: { first_name: "Changed" },
      headers: { host: "evil.example", referer: "http://evil.example/page", cookie: `session-id=${user.token}` },
    });
    expect(viaReferer.statusCode).toBe(403);
    expect((await client(t.app, user).get("/api/users/me/")).json().first_name).toBe(before);
  });

  it("accepts APP_BASE_URL's origin whatever the Host, and its Referer when Origin is absent", async () => {
    expect((await patchMe({ origin: ORIGIN, host: "internal-name:8080" })).statusCode).toBe(200);
    const res = await t.app.inject({
      method: "PATCH",
      url: "/api/users/me/",
      payload: { first_name: "ByReferer" },
      headers: { referer: `${ORIGIN}/profile/`, cookie: `session-id=${user.token}` },
    });
    expect(res.statusCode).toBe(200);
  });

  it("refuses a missing, opaque (`null`) or malformed Origin", async () => {
    expect((await patchMe({ origin: "null" })).statusCode).toBe(403);
    expect((await patchMe({ origin: "not a url" })).statusCode).toBe(403);
    const none = await t.app.inject({
      method: "PATCH",
      url: "/api/users/me/",
      payload: { first_name: "X" },
      headers: { cookie: `session-id=${user.token}` },
    });
    expect(none.statusCode).toBe(403);
  });

  it("lets safe methods through from anywhere (they change nothing)", async () => {
    expect((await client(t.app, user, { origin: "http://evil.example" }).get("/api/users/me/")).statusCode).toBe(200);
  });
});

describe("config.trustedOrigins", () => {
  const base = { DATA_DIR: "/tmp/unused", SECRET_KEY: "x".repeat(40) };

  it("is APP_BASE_URL's origin alone when it is set", () => {
    const config = loadConfig({ ...base, APP_BASE_URL: "https://work.example.com/", PORT: "3000" });
    expect([...config.trustedOrigins]).toEqual(["https://work.example.com"]);
    expect(config.appBaseUrl).toBe("https://work.example.com");
  });

  it("is this machine's loopback names on PORT when it is unset (npm start on localhost)", () => {
    const config = loadConfig({ ...base, PORT: "3000" });
    expect(config.appBaseUrl).toBe("http://localhost:3000");
    expect([...config.trustedOrigins].sort()).toEqual([
      "http://127.0.0.1:3000",
      "http://[::1]:3000",
      "http://localhost:3000",
    ]);
    expect([...loadConfig({ ...base, PORT: "80" }).trustedOrigins]).toContain("http://localhost");
  });
});
