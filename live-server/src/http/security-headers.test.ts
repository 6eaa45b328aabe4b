/**
 * Security headers (http/security-headers.ts) on the client's pages and files, on API answers,
 * and never in place of a served file's own sandboxing CSP. The app serves a tiny client build
 * made here (CLIENT_DIST), so no real client build is needed.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, createUser, type TestApp } from "../../test/harness.ts";
import { loadConfig } from "../config.ts";
import { API_POLICY, pagePolicy } from "./security-headers.ts";

let t: TestApp;
let dist: string;
beforeAll(async () => {
  dist = mkdtempSync(path.join(os.tmpdir(), "tideline-client-"));
  mkdirSync(path.join(dist, "assets"));
  writeFileSync(path.join(dist, "index.html"), '<!doctype html><script src="/theme.js"></script><div id="root"></div>');
  writeFileSync(path.join(dist, "theme.js"), "void 0;");
  writeFileSync(path.join(dist, "assets", "index-abc123.js"), "void 0;");
  t = await createTestApp({ CLIENT_DIST: dist }, { serveClient: true });
});
afterAll(async () => {
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

/** The CSP as a map of directive → sources. */
function directives(csp: unknown): Map<string, string[]> {
  expect(typeof csp).toBe("string");
  return new Map(
    String(csp)
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name as string, sources]),
  );
}

describe("the app's pages and files", () => {
  it("serve index.html (every app route) with a strict CSP, no framing, a referrer policy and nosniff", async () => {
    for (const url of ["/", "/my-workspace/projects/", "/sign-in?next_path=%2F"]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-type"]).toMatch(/^text\/html/);
      const csp = directives(res.headers["content-security-policy"]);
      expect(csp.get("default-src")).toEqual(["'self'"]);
      expect(csp.get("script-src")).toEqual(["'self'"]);
      expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
      expect(csp.get("object-src")).toEqual(["'none'"]);
      expect(csp.get("base-uri")).toEqual(["'self'"]);
      expect(csp.get("form-action")).toEqual(["'self'"]);
      expect(csp.get("img-src")).toEqual(expect.arrayContaining(["'self'", "data:", "blob:"]));
      // The live socket of the app's own origin (APP_BASE_URL=http://localhost:3000).
      expect(csp.get("connect-src")).toEqual(["'self'", "ws://localhost:3000"]);
      expect(res.headers["x-frame-options"]).toBe("DENY");
      expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
    }
  });

  it("serve scripts and other static files with the same headers", async () => {
    for (const url of ["/assets/index-abc123.js", "/theme.js"]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-security-policy"]).toBe(pagePolicy(t.app.ctx.config));
      expect(res.headers["x-frame-options"]).toBe("DENY");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
    }
  });

  it("the real client shell has no inline script (the CSP allows only 'self' scripts)", () => {
    const here = path.dirname(fileURLToPath(import.meta.url));
    const html = readFileSync(path.resolve(here, "../../../client/index.html"), "utf8");
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\ssrc=/);
      expect(body?.trim()).toBe("");
    }
    expect(html).not.toMatch(/\son[a-z]+=/i);
  });
});

describe("API answers", () => {
  it("carry a CSP that allows nothing, no framing and nosniff — JSON, errors and 404s alike", async () => {
    const user = await createUser(t.db);
    const answers = [
      await client(t.app, user).get("/api/users/me/"),
      await client(t.app, null).get("/api/users/me/"),
      await client(t.app, user).get("/api/no-such-route/"),
      await t.app.inject({ method: "GET", url: "/live/whatever" }),
    ];
    for (const res of answers) {
      expect(res.headers["content-security-policy"], res.body).toBe(API_POLICY);
      expect(res.headers["x-frame-options"]).toBe("DENY");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    }
  });
});

describe("the page CSP with S3 storage", () => {
  it("lets images and uploads reach the S3 endpoint, and the sockets of every trusted origin", () => {
    const config = loadConfig({
      DATA_DIR: "/tmp/unused",
      SECRET_KEY: "x".repeat(40),
      PORT: "3000",
      STORAGE_DRIVER: "s3",
      S3_ENDPOINT: "http://minio.internal:9000",
      S3_BUCKET: "uploads",
      S3_ACCESS_KEY_ID: "key",
      S3_SECRET_ACCESS_KEY: "secret",
    });
    const csp = directives(pagePolicy(config));
    expect(csp.get("img-src")).toContain("http://minio.internal:9000");
    expect(csp.get("connect-src")).toEqual(
      expect.arrayContaining(["'self'", "http://minio.internal:9000", "ws://localhost:3000", "ws://127.0.0.1:3000"]),
    );
    const aws = loadConfig({
      DATA_DIR: "/tmp/unused",
      SECRET_KEY: "x".repeat(40),
      APP_BASE_URL: "https://work.example.com",
      STORAGE_DRIVER: "s3",
      S3_REGION: "eu-west-1",
      S3_BUCKET: "files",
      S3_ACCESS_KEY_ID: "key",
      S3_SECRET_ACCESS_KEY: "secret",
    });
    expect(directives(pagePolicy(aws)).get("connect-src")).toEqual([
      "'self'",
      "wss://work.example.com",
      "https://files.s3.eu-west-1.amazonaws.com",
    ]);
  });
});

describe("the page CSP without APP_BASE_URL (the loopback names of PORT)", () => {
  it("names no source a browser drops: sockets of localhost and 127.0.0.1, none of [::1]", () => {
    const config = loadConfig({ DATA_DIR: "/tmp/unused", SECRET_KEY: "x".repeat(40), PORT: "3000" });
    // [::1] is trusted (a page opened there may call the API and open /live)…
    expect(config.trustedOrigins.has("http://[::1]:3000")).toBe(true);
    const connect = directives(pagePolicy(config)).get("connect-src") ?? [];
    expect(connect).toEqual(["'self'", "ws://localhost:3000", "ws://127.0.0.1:3000"]);
    // …but a CSP host-source is a host name or an IPv4 address, never an IPv6 literal: Chrome
    // logs "contains an invalid source: 'ws://[::1]:3000'" on every page load. 'self' covers a
    // page served at [::1] and its own socket.
    const hostSource = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::(?:\d+|\*))?$/i;
    for (const directive of directives(pagePolicy(config)).values()) {
      for (const source of directive) {
        if (source.startsWith("'") || source.endsWith(":")) continue;
        expect(source).toMatch(hostSource);
      }
    }
  });
});
