/**
 * The instance-level refusals: not set up yet (5000), no SMTP (5025), and the rate limit (5900),
 * on an app without SMTP and with tiny limits.
 */
import { AUTH_ERROR } from "@tideline/shared";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, ORIGIN, setupInstance, type TestApp } from "../../../test/harness.ts";
import { instance, jobs, magicCodes, passwordTokens } from "../../db/schema.ts";
import { countUsers, expectAuthError, expectRedirectError } from "./test-support.ts";

const PER_IP = 20;
const PER_EMAIL = 3;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { authRateLimits: { perIpPerMinute: PER_IP, perEmailPerMinute: PER_EMAIL } });
});
afterAll(() => t.close());

let n = 0;
const freshEmail = () => `limits-${Date.now().toString(36)}-${n++}@example.com`;

/** A JSON auth call from a given client address (each test uses its own, so limits don't mix). */
function postJson(app: FastifyInstance, url: string, body: Record<string, unknown>, ip: string) {
  return app.inject({ method: "POST", url, payload: body, headers: { origin: ORIGIN }, remoteAddress: ip });
}

function postFormFrom(app: FastifyInstance, url: string, fields: Record<string, string>, ip: string) {
  const csrf = "csrf-token-for-tests-0123456789abcdef";
  return app.inject({
    method: "POST",
    url,
    remoteAddress: ip,
    headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded", cookie: `csrftoken=${csrf}` },
    payload: new URLSearchParams({ csrfmiddlewaretoken: csrf, ...fields }).toString(),
  });
}

describe("before the instance is set up", () => {
  it("refuses every sign-in and sign-up flow with 5000 and stores nothing", async () => {
    const ip = "10.0.0.1";
    const before = await countUsers(t);
    const check = async () => {
      expectAuthError(
        await postJson(t.app, "/auth/email-check/", { email: freshEmail() }, ip),
        AUTH_ERROR.INSTANCE_NOT_CONFIGURED,
      );
      expectAuthError(
        await postJson(t.app, "/auth/magic-generate/", { email: freshEmail() }, ip),
        AUTH_ERROR.INSTANCE_NOT_CONFIGURED,
      );
      for (const [url, page] of [
        ["/auth/sign-up/", "/sign-up/"],
        ["/auth/magic-sign-up/", "/sign-up/"],
        ["/auth/sign-in/", "/"],
        ["/auth/magic-sign-in/", "/"],
      ] as const) {
        expectRedirectError(
          await postFormFrom(
            t.app,
            url,
            { email: freshEmail(), password: "a-long-enough-password", code: "123456" },
            ip,
          ),
          page,
          AUTH_ERROR.INSTANCE_NOT_CONFIGURED,
        );
      }
    };
    await check();
    // Marked set up but without an administrator still counts as not set up.
    await t.db.update(instance).set({ isSetupDone: true });
    await check();
    await t.db.update(instance).set({ isSetupDone: false });
    expect(await countUsers(t)).toBe(before);
    expect(await t.db.select().from(magicCodes)).toHaveLength(0);

    await setupInstance(t.db);
    const ok = await postFormFrom(
      t.app,
      "/auth/sign-up/",
      { email: freshEmail(), password: "a-long-enough-password" },
      ip,
    );
    expect(ok.headers.location).toBe("/");
  });
});

describe("without SMTP", () => {
  it("refuses forgot-password with 5025 and stores no token", async () => {
    const user = await createUser(t.db);
    expectAuthError(
      await postJson(t.app, "/auth/forgot-password/", { email: user.email }, "10.0.0.2"),
      AUTH_ERROR.SMTP_NOT_CONFIGURED,
    );
    expect(await t.db.select().from(passwordTokens)).toHaveLength(0);
  });

  it("still issues sign-in codes, delivered to the log", async () => {
    const email = freshEmail();
    const res = await postJson(t.app, "/auth/magic-generate/", { email }, "10.0.0.3");
    expect(res.statusCode).toBe(200);
    expect(await t.db.select().from(magicCodes).where(eq(magicCodes.email, email))).toHaveLength(1);
    await t.app.ctx.jobs.kick();
    // The mail job ran (logged, not failed) and left the queue.
    expect(await t.db.select().from(jobs)).toHaveLength(0);
  });
});

describe("the auth rate limit", () => {
  it(`allows ${PER_EMAIL} attempts a minute per e-mail, then answers 5900 (429 / redirect) from any address`, async () => {
    const email = freshEmail();
    for (let i = 0; i < PER_EMAIL; i++) {
      expect((await postJson(t.app, "/auth/email-check/", { email }, "10.0.0.4")).statusCode).toBe(200);
    }
    expectAuthError(await postJson(t.app, "/auth/email-check/", { email }, "10.0.0.4"), AUTH_ERROR.RATE_LIMIT_EXCEEDED);
    expectAuthError(
      await postJson(t.app, "/auth/magic-generate/", { email: email.toUpperCase() }, "10.0.0.5"),
      AUTH_ERROR.RATE_LIMIT_EXCEEDED,
    );
    const before = await countUsers(t);
    const signUp = await postFormFrom(
      t.app,
      "/auth/sign-up/",
      { email, password: "a-long-enough-password", next_path: "/acme/" },
      "10.0.0.6",
    );
    const query = expectRedirectError(signUp, "/sign-up/", AUTH_ERROR.RATE_LIMIT_EXCEEDED);
    expect(query).toMatchObject({ email, next_path: "/acme/" });
    expectRedirectError(
      await postFormFrom(t.app, "/auth/sign-in/", { email, password: "whatever-password" }, "10.0.0.6"),
      "/",
      AUTH_ERROR.RATE_LIMIT_EXCEEDED,
    );
    expect(await countUsers(t)).toBe(before);
    // Another address is not affected.
    expect((await postJson(t.app, "/auth/email-check/", { email: freshEmail() }, "10.0.0.4")).statusCode).toBe(200);
  });

  it(`allows ${PER_IP} attempts a minute per client address`, async () => {
    const ip = "10.0.0.7";
    for (let i = 0; i < PER_IP; i++) {
      expect((await postJson(t.app, "/auth/email-check/", { email: freshEmail() }, ip)).statusCode).toBe(200);
    }
    expectAuthError(
      await postJson(t.app, "/auth/email-check/", { email: freshEmail() }, ip),
      AUTH_ERROR.RATE_LIMIT_EXCEEDED,
    );
    expectAuthError(await postJson(t.app, "/auth/email-check/", {}, ip), AUTH_ERROR.RATE_LIMIT_EXCEEDED);
    expectRedirectError(
      await postFormFrom(t.app, "/auth/sign-in/", { email: freshEmail(), password: "whatever-password" }, ip),
      "/",
      AUTH_ERROR.RATE_LIMIT_EXCEEDED,
    );
  });

  it("counts password changes too", async () => {
    const user = await createUser(t.db);
    const call = () =>
      t.app.inject({
        method: "POST",
        url: "/auth/change-password/",
        remoteAddress: "10.0.0.8",
        headers: { origin: ORIGIN, cookie: `session-id=${user.token}` },
        payload: { old_password: "wrong-password", new_password: "a-brand-new-password" },
      });
    for (let i = 0; i < PER_EMAIL; i++) expectAuthError(await call(), AUTH_ERROR.INCORRECT_OLD_PASSWORD);
    expectAuthError(await call(), AUTH_ERROR.RATE_LIMIT_EXCEEDED);
  });
});
